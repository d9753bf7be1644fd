import { createDatabase } from "./database.js";

// Entry of the short-lived process `initialisePgliteFolder` starts: initdb and the migrations on a
// new folder, then exit. initdb grows PGlite's WASM memory to about 700 MB, which WASM never gives
// back; exiting is the only way to return it, so the server opens the finished folder afresh.
const dataDir = process.argv[2];
if (dataDir === undefined) {
  process.stderr.write("usage: pglite-init-child <dataDir>\n");
  process.exit(2);
}
const database = await createDatabase(undefined, dataDir);
await database.close();
