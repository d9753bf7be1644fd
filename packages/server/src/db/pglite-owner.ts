import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const OWNER_FILE = "keyport.pid";

/** Thrown when another live process has the embedded database folder open. */
export class PgliteFolderInUse extends Error {
  override name = "PgliteFolderInUse";
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return error instanceof Error && Reflect.get(error, "code") === "EPERM";
  }
}

/**
 * Claims the embedded database folder for this process: PGlite is one backend in one process, and two
 * processes on one folder corrupt it (its own `postmaster.pid` names no real process). A folder whose
 * owner file names another live process is refused; a stale one (a killed process) is taken over.
 * Returns the release, which removes the file. docs/configuration.md (the embedded database).
 * @throws PgliteFolderInUse naming the process that holds it.
 */
export function claimPgliteFolder(folder: string): () => void {
  const file = join(folder, OWNER_FILE);
  let owner: number | undefined;
  try {
    owner = Number.parseInt(readFileSync(file, "utf8"), 10);
  } catch {
    owner = undefined;
  }
  if (
    owner !== undefined &&
    Number.isSafeInteger(owner) &&
    owner > 0 &&
    owner !== process.pid &&
    isAlive(owner)
  ) {
    throw new PgliteFolderInUse(
      `The embedded database in ${folder} is open in process ${owner} (a running Keyport server?): stop it first`,
    );
  }
  writeFileSync(file, `${process.pid}\n`);
  return () => rmSync(file, { force: true });
}
