import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { pgliteOptions } from "../src/db/pglite-options.js";
import { pgliteTemplateKey, TEMPLATE_FILE, TEMPLATE_KEY_FILE } from "../src/db/pglite-template.js";

// `pnpm --filter @keyport/server db:template`: rebuilds the committed PGlite template after a migration
// or a PGlite upgrade (a test fails until it is rebuilt; until then first starts run initdb instead).
const client = await PGlite.create(pgliteOptions());
await migrate(drizzle(client), { migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)) });
const tarball = await client.dumpDataDir("gzip");
await client.close();
writeFileSync(TEMPLATE_FILE, Buffer.from(await tarball.arrayBuffer()));
writeFileSync(TEMPLATE_KEY_FILE, `${JSON.stringify({ key: pgliteTemplateKey() }, null, 2)}\n`);
process.stdout.write(`wrote ${TEMPLATE_FILE} (${tarball.size} bytes)\n`);
