import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { createDatabase } from "../../src/db/database.js";
import { initialisePgliteFolder } from "../../src/db/pglite-init.js";
import { pgliteOptions } from "../../src/db/pglite-options.js";

// `node --import tsx test/support/pglite-resident.ts <dataDir> server|plain`: opens the embedded
// database in `<dataDir>/pglite` (made first if missing, as the server does), as the server does (`server`) or with PGlite's own
// defaults and the server's options (`plain`), runs a query load long enough for V8 to tier up
// PostgreSQL's hot functions, and prints the process's resident memory in MB.
const [dataDir, mode] = process.argv.slice(2);
if (dataDir === undefined || (mode !== "server" && mode !== "plain")) {
  throw new Error("usage: pglite-resident.ts <dataDir> server|plain");
}

await initialisePgliteFolder(dataDir);
let query: (text: string) => Promise<unknown>;
let close: () => Promise<void>;
if (mode === "server") {
  const database = await createDatabase(undefined, dataDir);
  query = (text) => database.db.execute(sql.raw(text));
  close = database.close;
} else {
  const client = await PGlite.create({ dataDir: join(dataDir, "pglite"), ...pgliteOptions() });
  query = (text) => client.exec(text);
  close = () => client.close();
}

await query("create temporary table churn (id int primary key, label text)");
await query("insert into churn select g, md5(g::text) from generate_series(1, 20000) g");
for (let i = 0; i < 3_000; i++) {
  await query(`select label from churn where id = ${i * 7 + 1}`);
  if (i % 100 === 0) await query(`update churn set label = md5(label) where id < ${i + 50}`);
}
const residentMb = process.memoryUsage().rss / 1_048_576;
await close();
process.stdout.write(`${JSON.stringify({ residentMb })}\n`);
