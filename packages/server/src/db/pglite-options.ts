import { setFlagsFromString } from "node:v8";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

/**
 * Shared buffers for the embedded database. PostgreSQL's 128 MB default is touched at start inside
 * PGlite's WASM memory, which never shrinks: 16 MB cuts about 125 MB of RSS from every start, and
 * the working set of a key store fits (a miss is a read from the OS page cache, not from disk).
 */
const SHARED_BUFFERS = "shared_buffers=16MB";

/**
 * The PGlite options every embedded database opens with, in memory or on disk. `initDbStartParams`
 * writes the setting into a new folder's postgresql.conf; `startParams` applies it to folders made
 * before it existed, since the command line wins over the file.
 * @example const client = await PGlite.create({ dataDir, ...pgliteOptions() });
 */
export function pgliteOptions(): Pick<PGliteOptions, "startParams" | "initDbStartParams"> {
  return {
    startParams: [...PGlite.defaultStartParams, "-c", SHARED_BUFFERS],
    initDbStartParams: ["-c", SHARED_BUFFERS],
  };
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for the rest of the process; call it before
 * the embedded database first starts. V8 otherwise recompiles PostgreSQL's hot functions with
 * TurboFan on background threads, and that work leaves about 45 MB resident for the server's
 * lifetime (the optimised code and compile memory kept by the C allocator). PGlite is the only
 * WebAssembly the server runs, and a key store's queries are short: the bench shows what it costs
 * (docs/benchmarks.md#memory). A process flag, set in-process so every way of starting the server
 * gets it; it must precede the module's compilation to take effect.
 * @example useBaselineWasmCompiler(); const client = await PGlite.create({ dataDir });
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}
