import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";

/** The result of a child process that ran to the end (whatever its exit code). */
export interface Ran {
  code: number;
  output: string;
}

/** Runs a command, collecting stdout and stderr; never rejects on a non-zero exit. */
export function run(command: string, args: string[], cwd: string, timeoutMs = 180_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: "" } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(error);
        resolve({ code: typeof error?.code === "number" ? error.code : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Like `run`, but fails with the command's output when it exits non-zero. */
export async function runOk(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs?: number,
): Promise<string> {
  const result = await run(command, args, cwd, timeoutMs);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${result.code}:\n${result.output}`);
  return result.output;
}

/** The repository's TypeScript compiler (the client's pinned devDependency), run with node. */
export const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** The one `.tgz` in `dir`. */
export async function findTarball(dir: string): Promise<string> {
  const tarballs = (await readdir(dir)).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length !== 1 || tarballs[0] === undefined) throw new Error(`expected one tarball in ${dir}`);
  return `${dir}/${tarballs[0]}`;
}
