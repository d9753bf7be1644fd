import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { closeServer, exitOnSignal, portFromEnv } from "./shutdown.js";

// Baseline of the database-backed key routes: bare node:http plus the raw driver, running the
// very statements the server's list and create run, with no framework, session or validation.
// BENCH_DB is a postgres:// URL or `pglite:<dir>` (on disk, like the server's embedded mode).

const LIST_SQL = `select "id", "wallet", "name", "hash", "start", "created_at", "expires_at", "revoked_at",
  "last_used_at", "rate_limit_limit", "rate_limit_window_seconds", "rolled_from"
  from "api_keys" where "api_keys"."wallet" = $1
  order by "api_keys"."created_at" desc, "api_keys"."id" desc limit $2`;

const INSERT_SQL = `insert into "api_keys" ("id", "wallet", "name", "hash", "start", "created_at")
  values ($1, $2, $3, $4, $5, $6) returning *`;

type Query = (text: string, params: Array<string | number | Date>) => Promise<unknown[]>;

const MIGRATIONS = new URL("../../packages/server/drizzle/", import.meta.url);

async function openDatabase(spec: string): Promise<{ query: Query; close(): Promise<void> }> {
  if (spec.startsWith("pglite:")) {
    const pg = await PGlite.create(spec.slice("pglite:".length));
    const exists = await pg.query<{ present: boolean }>(
      "select to_regclass('api_keys') is not null as present",
    );
    if (!exists.rows[0]?.present) {
      // The server's own migration files, so the baseline's table and indexes are the same.
      const dir = MIGRATIONS.pathname;
      for (const file of readdirSync(dir)
        .filter((name) => name.endsWith(".sql"))
        .sort()) {
        await pg.exec(readFileSync(join(dir, file), "utf8").replaceAll("--> statement-breakpoint", ""));
      }
    }
    return {
      query: async (text, params) => (await pg.query(text, params)).rows,
      close: () => pg.close(),
    };
  }
  const sql = postgres(spec, { max: 10, onnotice: () => {} });
  return {
    // Prepared like the tagged-template default: the fastest plain use of postgres.js.
    query: async (text, params) => [...(await sql.unsafe(text, params, { prepare: true }))],
    close: () => sql.end({ timeout: 5 }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

const spec = process.env.BENCH_DB;
if (spec === undefined) throw new Error("BENCH_DB must be set");
const database = await openDatabase(spec);

const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const handle = async () => {
    if (req.method === "GET" && path === "/healthz") return send(res, 200, { ok: true });
    if (req.method === "GET" && path.startsWith("/api-keys/")) {
      const wallet = decodeURIComponent(path.slice("/api-keys/".length));
      const rows = await database.query(LIST_SQL, [wallet, 51]);
      return send(res, 200, { keys: rows.slice(0, 50), nextCursor: null });
    }
    if (req.method === "POST" && path === "/api-keys") {
      const input: unknown = JSON.parse(await readBody(req));
      if (typeof input !== "object" || input === null || !("name" in input) || !("wallet" in input)) {
        return send(res, 400, { code: "BAD_REQUEST", message: "name and wallet are required" });
      }
      const secret = `kp_${randomBytes(24).toString("base64url")}`;
      const [row] = await database.query(INSERT_SQL, [
        `key_${randomBytes(12).toString("base64url")}`,
        String(input.wallet),
        String(input.name),
        createHash("sha256").update(secret).digest("hex"),
        secret.slice(0, 7),
        new Date(),
      ]);
      return send(res, 201, { key: secret, apiKey: row });
    }
    send(res, 404, { code: "NOT_FOUND", message: "no route" });
  };
  handle().catch((error: unknown) => {
    if (!res.headersSent) send(res, 500, { code: "INTERNAL_SERVER_ERROR", message: String(error) });
  });
});
server.listen(portFromEnv(), "127.0.0.1");
exitOnSignal(async () => {
  await closeServer(server);
  await database.close();
});
