import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUsageBuffer } from "./buffer.js";
import { parseUsageRows, USAGE_ROWS_SQL, usageRowsParams } from "./query.js";
import { createSqlUsageSink, type ExecuteSql } from "./rollup.js";
import { buildUsage, resolveUsageRange } from "./series.js";

// The table shapes the wiring phase will create with drizzle; here they are the fixture.
const DDL = [
  `CREATE TABLE api_keys (id text PRIMARY KEY, wallet text NOT NULL, name text NOT NULL, last_used_at timestamptz(3))`,
  `CREATE TABLE usage_hourly (
     key_id text NOT NULL REFERENCES api_keys (id),
     wallet text NOT NULL,
     hour timestamptz NOT NULL,
     outcome text NOT NULL CHECK (outcome IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED')),
     count bigint NOT NULL,
     PRIMARY KEY (key_id, hour, outcome))`,
  `CREATE INDEX usage_hourly_wallet_hour_idx ON usage_hourly (wallet, hour)`,
];

interface Db {
  execute: ExecuteSql;
  query(text: string, params: Array<string | null>): Promise<unknown[]>;
  rows(text: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

const databaseUrl = process.env.TEST_DATABASE_URL;
const targets: Array<{ name: string; open: () => Promise<Db> }> = [
  {
    name: "pglite",
    async open() {
      const pg = await PGlite.create();
      return {
        execute: (text, params) => pg.query(text, params),
        query: async (text, params) => (await pg.query(text, params)).rows,
        rows: async (text) => (await pg.query<Record<string, unknown>>(text)).rows,
        close: () => pg.close(),
      };
    },
  },
];
if (databaseUrl) {
  targets.push({
    name: "postgresql",
    async open() {
      const admin = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
      const name = `keyport_usage_${randomBytes(6).toString("hex")}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      const url = new URL(databaseUrl);
      url.pathname = `/${name}`;
      const sql = postgres(url.toString(), { max: 4, onnotice: () => undefined });
      return {
        execute: (text, params) => sql.unsafe(text, params),
        query: (text, params) => sql.unsafe(text, params),
        rows: (text) => sql.unsafe(text),
        async close() {
          await sql.end();
          await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
          await admin.end();
        },
      };
    },
  });
}

const W = "0x000000000000000000000000000000000000dEaD";
const OTHER = "0x1111111111111111111111111111111111111111";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

describe.each(targets)("usage rollup on $name", ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
    for (const statement of DDL) await db.execute(statement, []);
    await db.execute(
      `INSERT INTO api_keys (id, wallet, name) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`,
      [
        ["key_a", "key_b", "key_other"],
        [W, W, OTHER],
        ["alpha", "beta", "other"],
      ],
    );
  });
  afterAll(() => db.close());

  it("adds each flush onto the hourly rows and moves lastUsedAt forward only", async () => {
    const sink = createSqlUsageSink(db.execute);
    const usage = createUsageBuffer({ sink, flushIntervalMs: 60_000 });
    for (let i = 0; i < 3; i++) usage.record("key_a", W, "VALID", T0 + i);
    usage.record("key_b", W, "REVOKED", T0 + 3_600_000);
    await usage.flush();
    for (let i = 0; i < 2; i++) usage.record("key_a", W, "VALID", T0 + 120_000);
    usage.record("key_a", W, "RATE_LIMITED", T0 + 120_000);
    await usage.close();
    // An older timestamp arriving late (another instance's flush) must not move lastUsedAt back.
    await sink({ counts: [], lastUsed: [{ keyId: "key_a", at: new Date(T0) }] });

    const rows = await db.rows(
      `SELECT key_id, outcome, extract(epoch FROM hour) * 1000 AS hour, count::int AS count
       FROM usage_hourly ORDER BY key_id, hour, outcome`,
    );
    expect(rows.map((r) => [r.key_id, r.outcome, Number(r.hour), r.count])).toEqual([
      ["key_a", "RATE_LIMITED", T0, 1],
      ["key_a", "VALID", T0, 5],
      ["key_b", "REVOKED", T0 + 3_600_000, 1],
    ]);
    const keys = await db.rows(
      `SELECT id, extract(epoch FROM last_used_at) * 1000 AS at FROM api_keys WHERE wallet = '${W}' ORDER BY id`,
    );
    expect(keys.map((k) => [k.id, Number(k.at)])).toEqual([
      ["key_a", T0 + 120_000],
      ["key_b", T0 + 3_600_000],
    ]);
  });

  it("writes a large batch in one statement", async () => {
    const sink = createSqlUsageSink(db.execute);
    const usage = createUsageBuffer({ sink, flushIntervalMs: 60_000, maxPendingRows: 100_000 });
    // 20,000 distinct hours: far more rows than a statement could carry as separate parameters.
    for (let h = 0; h < 20_000; h++) usage.record("key_b", W, "EXPIRED", T0 + h * 3_600_000);
    await usage.close();
    const [row] = await db.rows(`SELECT sum(count)::int AS n FROM usage_hourly WHERE outcome = 'EXPIRED'`);
    expect(row?.n).toBe(20_000);
  });

  it("reads one wallet's rollup back per key, UTC bucket and outcome", async () => {
    const usage = createUsageBuffer({ sink: createSqlUsageSink(db.execute), flushIntervalMs: 60_000 });
    const DAY = 86_400_000;
    const base = Date.UTC(2030, 0, 1); // after every hour the other tests write
    usage.record("key_a", W, "VALID", base + 23 * 3_600_000); // last hour of day 1
    usage.record("key_a", W, "VALID", base + DAY); // first hour of day 2
    usage.record("key_b", W, "RATE_LIMITED", base + DAY + 1);
    usage.record("key_other", OTHER, "VALID", base);
    usage.record("key_a", W, "VALID", base + 3 * DAY); // outside the range
    await usage.close();

    const result = resolveUsageRange(new Date(base), new Date(base + 3 * DAY), "day");
    if (!result.ok) throw new Error(result.message);
    const rows = parseUsageRows(await db.query(USAGE_ROWS_SQL, usageRowsParams(W, result.range, null)));
    const answer = buildUsage({ wallet: W, range: result.range, rows });
    expect(answer.series.map((s) => [s.valid, s.rateLimited])).toEqual([
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
    expect(answer.keys.map((k) => [k.keyId, k.name, k.requests])).toEqual([
      ["key_a", "alpha", 2],
      ["key_b", "beta", 1],
    ]);

    const one = parseUsageRows(await db.query(USAGE_ROWS_SQL, usageRowsParams(W, result.range, "key_b")));
    expect(one.map((r) => [r.keyId, r.count])).toEqual([["key_b", 1]]);
  });
});
