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
