import { createDatabase } from "./database.js";
import { readPgliteTemplate } from "./pglite-template.js";

// Entry of the short-lived process `initialisePgliteFolder` starts: initdb and the migrations on a
// new folder (or the unpacking of the
// committed template), then exit. initdb grows PGlite's WASM memory to about 700 MB, which WASM never gives
// back; exiting is the only way to return it, so the server opens the finished folder afresh.
const dataDir = process.argv[2];
if (dataDir === undefined) {
  process.stderr.write("usage: pglite-init-child <dataDir>\n");
  process.exit(2);
}
// The committed template when it matches the migrations and PGlite (a few seconds instead of initdb's
// ten); the migrations then find nothing to do. Otherwise initdb, as before.
const database = await createDatabase(undefined, dataDir, {
  pgliteTemplate: readPgliteTemplate() ?? undefined,
});
await database.close();
