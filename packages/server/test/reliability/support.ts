import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { type App, createApp } from "../../src/app.js";
import type { Database } from "../../src/db/database.js";
import { parseEnv } from "../../src/env.js";
import { createLogger } from "../../src/logger.js";

/** A response read byte for byte. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** A request sent as given: the path is not parsed, folded or re-encoded on the way. */
export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Sends one request over a fresh node:http connection and reads the whole answer. */
export function sendRaw(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...req.headers };
  // node:http frames a GET or DELETE body only when told its length; unframed it would read as a new request.
  if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? "GET",
        path: req.path,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) headers[name] = String(value);
          resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8") });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(req.body);
  });
}

/** No body may carry a stack frame, SQL, or a driver's error text. */
export const INTERNALS =
  /\bat .+:\d+:\d+|node_modules|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate\b.+\bset\b|Failed query|DrizzleQueryError/i;

/**
 * The REST error contract: JSON `{ code, message }` (plus `issues` for validation), a 4xx, no internals.
 */
export function expectErrorEnvelope(res: RawResponse): void {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(res.text);
  expect(body).toEqual({
    code: expect.stringMatching(/^[A-Z_]+$/),
    message: expect.any(String),
    ...(typeof body === "object" && body !== null && "issues" in body ? { issues: expect.any(Array) } : {}),
  });
  expect(res.text).not.toMatch(INTERNALS);
}

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
    parseEnv({ DATABASE_URL: target.url, LOG_LEVEL: "info", NONCE_RATE_LIMIT: "off", ...env }),
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
