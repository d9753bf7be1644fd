import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { type App, createApp } from "../../src/app.js";
import type { Database } from "../../src/db/database.js";
import { parseEnv } from "../../src/env.js";
import { createLogger } from "../../src/logger.js";
import { TEST_WEBHOOKS_KEY } from "../support/webhooks-key.js";

/** Every row of every table in the public schema, ordered, for before/after comparisons and secret scans. */
export async function dumpTables(database: Database): Promise<Record<string, unknown[]>> {
  const tables = await rows(
    database,
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const dump: Record<string, unknown[]> = {};
  for (const table of tables) {
    const name = String(Reflect.get(Object(table), "table_name"));
    if (name.startsWith("__drizzle")) continue;
    dump[name] = await rows(database, `select * from "${name}" order by 1, 2`);
  }
  return dump;
}

async function rows(database: Database, text: string): Promise<unknown[]> {
  const result: unknown = await database.db.execute(sql.raw(text));
  if (Array.isArray(result)) return [...result];
  const inner: unknown = Reflect.get(Object(result), "rows");
  return Array.isArray(inner) ? inner : [];
}

/** The app on 127.0.0.1 with every log line it writes captured. */
export interface CapturedServer {
  app: App;
  baseUrl: string;
  logLines: string[];
  close(): Promise<void>;
}

/** Starts `createApp` over a shared database with an `info` logger writing into `logLines`. */
export async function startCapturedServer(
  target: { database: Database; url: string },
  env: Record<string, string> = {},
): Promise<CapturedServer> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const app = await createApp(
    parseEnv({
      DATABASE_URL: target.url,
      WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
      LOG_LEVEL: "info",
      NONCE_RATE_LIMIT: "off",
      ...env,
    }),
    {
      database: target.database,
      logger: createLogger("info", sink),
    },
  );
  const port = await app.listen(0, "127.0.0.1");
  return { app, baseUrl: `http://127.0.0.1:${port}`, logLines, close: () => app.close() };
}

/** Puts a string on the wire: fully percent-encoded as UTF-8, or loosely (stray `%`, `&`, `/` kept). */
export function wire(value: string, loose: boolean): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    const keep = loose ? byte > 0x20 && byte < 0x7f && char !== "#" : /[A-Za-z0-9._~-]/.test(char);
    out += keep ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
