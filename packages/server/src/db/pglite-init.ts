import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** What `initialisePgliteFolder` reports while it works. */
export interface InitialiseOptions {
  /** Called once before a new folder is initialised (not at all for an existing one). */
  onStart?: (folder: string) => void;
}

// The child is this folder's sibling in whichever form this module runs: dist/*.js or src/*.ts (under tsx,
// whose loader flags the child inherits through `process.execArgv`).
const CHILD_ENTRY = fileURLToPath(
  new URL(`./pglite-init-child.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`, import.meta.url),
);
const STDERR_LIMIT = 4_000;

/**
 * Creates and migrates the embedded database folder `dataDir/pglite` in a short-lived child process
 * when it does not exist yet, so the caller then opens an existing folder: initdb's ~700 MB of WASM
 * memory leaves with the child instead of staying in the server for its lifetime. The child works in
 * `dataDir/.pglite-init` and the result is renamed into place, so an interrupted first start leaves
 * no half-made folder behind. A folder that exists is left alone (PGlite opens or rejects it).
 * @returns true when it initialised a new folder.
 * @example
 * await initialisePgliteFolder(env.DATA_DIR, { onStart: (folder) => logger.info(`initialising ${folder}`) });
 * const database = await createDatabase(undefined, env.DATA_DIR); // opens the finished folder
 */
export async function initialisePgliteFolder(
  dataDir: string,
  options: InitialiseOptions = {},
): Promise<boolean> {
  const folder = join(dataDir, "pglite");
  if (existsSync(folder) && readdirSync(folder).length > 0) return false;
  options.onStart?.(folder);
  const staging = join(dataDir, ".pglite-init");
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await runChild(staging);
  // An empty folder may be left by a start before this one existed; rename() cannot replace it everywhere.
  rmSync(folder, { recursive: true, force: true });
  renameSync(join(staging, "pglite"), folder);
  rmSync(staging, { recursive: true, force: true });
  return true;
}

function runChild(staging: string): Promise<void> {
  const child = spawn(process.execPath, [...process.execArgv, CHILD_ENTRY, staging], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  // If this process is stopped mid-way, the child goes too; the next start begins again from scratch.
  const killChild = () => child.kill();
  process.once("exit", killChild);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_LIMIT);
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      process.off("exit", killChild);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `initialising the embedded database failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`,
          ),
        );
    });
  });
}
