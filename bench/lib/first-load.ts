import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";

/** The first-load budget: gzipped JavaScript the dashboard's index.html loads before any click. */
export const FIRST_LOAD_BUDGET_KB = 200;

/** What the first page load of the built dashboard costs in JavaScript. */
export interface FirstLoad {
  /** The eagerly loaded scripts, as paths under the build folder, with their gzipped sizes in bytes. */
  files: Array<{ path: string; gzipBytes: number }>;
  /** Their sum in kB (1,000 bytes, as Vite reports sizes). */
  gzipKb: number;
  budgetKb: number;
  pass: boolean;
}

const SCRIPT_SRC = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g;
const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g;
// Static imports between chunks (`import{a as b}from"./x.js"`, `import"./y.js"`); `import("./z.js")`,
// the lazily loaded views, does not match.
const STATIC_IMPORT = /\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

/**
 * Sums the gzipped size of every script the built `index.html` in `dir` loads eagerly: its module
 * scripts, its modulepreload links, and whatever those import statically, each counted once.
 */
export async function measureFirstLoad(dir: string): Promise<FirstLoad> {
  const html = await readFile(join(dir, "index.html"), "utf8");
  const pending = [...html.matchAll(SCRIPT_SRC), ...html.matchAll(MODULE_PRELOAD)].map((match) =>
    posix.normalize(`/${match[1] ?? ""}`),
  );
  const seen = new Map<string, number>();
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (seen.has(path)) continue;
    const source = await readFile(join(dir, path));
    seen.set(path, gzipSync(source).length);
    for (const match of source.toString("utf8").matchAll(STATIC_IMPORT)) {
      pending.push(posix.join(posix.dirname(path), match[1] ?? ""));
    }
  }
  const files = [...seen].map(([path, gzipBytes]) => ({ path, gzipBytes }));
  const gzipKb = files.reduce((sum, file) => sum + file.gzipBytes, 0) / 1_000;
  return { files, gzipKb, budgetKb: FIRST_LOAD_BUDGET_KB, pass: gzipKb <= FIRST_LOAD_BUDGET_KB };
}

/** Builds the dashboard (`vite build`) into a temporary folder and measures its first load. */
export async function buildAndMeasureFirstLoad(root: string): Promise<FirstLoad> {
  const dir = await mkdtemp(join(tmpdir(), "keyport-dashboard-size-"));
  try {
    await promisify(execFile)(
      "pnpm",
      [
        "--filter",
        "@keyport/dashboard",
        "exec",
        "vite",
        "build",
        "--outDir",
        dir,
        "--emptyOutDir",
        "--logLevel",
        "error",
      ],
      { cwd: root },
    );
    return await measureFirstLoad(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line for the bench's output: `Dashboard first load: 104.3 kB of gzipped JavaScript in 5 files ...`. */
export function describeFirstLoad(result: FirstLoad): string {
  return `Dashboard first load: ${result.gzipKb.toFixed(1)} kB of gzipped JavaScript in ${result.files.length} files (budget ${result.budgetKb} kB): ${result.pass ? "PASS" : "MISS"}`;
}
