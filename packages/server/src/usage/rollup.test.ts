import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createPostgresTestDatabase, openTestPglite } from "../../test/support/databases.js";
import { createDatabase, type Database } from "../db/database.js";
import { createRawQuery } from "../db/raw.js";
import { createUsageBuffer } from "./buffer.js";
import { parseUsageSums, USAGE_SUMS_SQL, usageSumsParams } from "./query.js";
import { createSqlUsageSink, type ExecuteSql } from "./rollup.js";
import { buildUsageFromSums, resolveUsageRange } from "./series.js";

interface Db {
  execute: ExecuteSql;
  query(text: string, params: Array<string | null>): Promise<unknown[]>;
  rows(text: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

// The real schema, migrated: usage_daily follows usage_hourly through the migration's triggers.
async function openDb(open: () => Promise<Database>, drop?: () => Promise<void>): Promise<Db> {
  const database = await open();
  const raw = createRawQuery(database.driver);
  return {
    execute: (text, params) => raw(text, params),
    query: (text, params) => raw(text, params),
    rows: async (text) => z.array(z.record(z.string(), z.unknown())).parse(await raw(text, [])),
    async close() {
      await database.close();
      await drop?.();
    },
  };
}

const databaseUrl = process.env.TEST_DATABASE_URL;
const targets: Array<{ name: string; open: () => Promise<Db> }> = [
  { name: "pglite", open: () => openDb(openTestPglite) },
];
if (databaseUrl) {
  targets.push({
    name: "postgresql",
    async open() {
      const created = await createPostgresTestDatabase(databaseUrl);
      return openDb(() => createDatabase(created.url, ""), created.drop);
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
    await db.execute(
      `INSERT INTO api_keys (id, wallet, name, hash, start)
       SELECT id, wallet, name, 'hash-' || id, 'kp_x' FROM unnest($1::text[], $2::text[], $3::text[]) AS t (id, wallet, name)`,
      [
        ["key_a", "key_b", "key_other"],
        [W, W, OTHER],
        ["alpha", "beta", "other"],
      ],
    );
  });
  afterAll(() => db.close());

  it("adds each flush onto the hourly rows and moves lastUsedAt forward only, on VALID verifications only", async () => {
    const sink = createSqlUsageSink(db.execute);
    const usage = createUsageBuffer({ sink, flushIntervalMs: 60_000 });
    for (let i = 0; i < 3; i++) usage.record("key_a", W, "VALID", T0 + i);
    usage.record("key_b", W, "REVOKED", T0 + 3_600_000);
    await usage.flush();
    for (let i = 0; i < 2; i++) usage.record("key_a", W, "VALID", T0 + 120_000);
    usage.record("key_a", W, "RATE_LIMITED", T0 + 120_000);
    await usage.close();
    // An older timestamp arriving late (another instance's flush) must not move lastUsedAt back.
    await sink({ counts: [], lastUsed: [{ keyId: "key_a", at: new Date(T0) }], recent: [] });

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
    // key_b was only refused: "last used" is the last VALID verification (docs/api.md).
    expect(keys.map((k) => [k.id, k.at === null ? null : Number(k.at)])).toEqual([
      ["key_a", T0 + 120_000],
      ["key_b", null],
    ]);
  });

  it("keeps each key's newest 50 verifications across flushes, newest first, with what was asked", async () => {
    const sink = createSqlUsageSink(db.execute);
    const usage = createUsageBuffer({ sink, flushIntervalMs: 60_000 });
    const base = T0 + 30 * 86_400_000;
    // 30 in one flush, then 40 more in the next: 70 in all, the newest 50 are kept.
    for (let i = 0; i < 30; i++) usage.record("key_other", OTHER, "VALID", base + i);
    await usage.flush();
    for (let i = 30; i < 70; i++) {
      usage.record("key_other", OTHER, i % 2 === 0 ? "VALID" : "INSUFFICIENT_PERMISSIONS", base + i, {
        permissions: ["prices:read"],
        cost: 3,
        ...(i % 2 === 0 ? { ip: "203.0.113.7" } : {}),
      });
    }
    await usage.close();
    const rows = await db.rows(
      `SELECT extract(epoch FROM at) * 1000 AS at, outcome, permissions, cost, ip FROM key_verifications
       WHERE key_id = 'key_other' ORDER BY at DESC, id DESC`,
    );
    expect(rows).toHaveLength(50);
    expect(rows.map((r) => Number(r.at))).toEqual(Array.from({ length: 50 }, (_, i) => base + 69 - i));
    expect(rows[0]).toMatchObject({
      outcome: "INSUFFICIENT_PERMISSIONS",
      permissions: ["prices:read"],
      cost: 3,
      ip: null,
    });
    expect(rows[1]).toMatchObject({
      outcome: "VALID",
      permissions: ["prices:read"],
      cost: 3,
      ip: "203.0.113.7",
    });
    // The first flush's rows took the defaults: nothing asked, cost 1.
    expect(rows[49]).toMatchObject({ outcome: "VALID", permissions: [], cost: 1, ip: null });
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
    const sums = parseUsageSums(await db.query(USAGE_SUMS_SQL.day, usageSumsParams(W, result.range, null)));
    const answer = buildUsageFromSums({ wallet: W, range: result.range, ...sums });
    expect(answer.series.map((s) => [s.valid, s.rateLimited])).toEqual([
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
    expect(answer.keys.map((k) => [k.keyId, k.name, k.requests])).toEqual([
      ["key_a", "alpha", 2],
      ["key_b", "beta", 1],
    ]);

    const one = parseUsageSums(await db.query(USAGE_SUMS_SQL.day, usageSumsParams(W, result.range, "key_b")));
    expect(one.byKey.map((r) => [r.keyId, r.outcome, r.count])).toEqual([["key_b", "RATE_LIMITED", 1]]);
    expect(one.byBucket.map((r) => [r.start.getTime(), r.outcome, r.count])).toEqual([
      [base + DAY, "RATE_LIMITED", 1],
    ]);
  });

  it("keeps the daily rollups equal to the sums of the hourly ones, through inserts and upserts", async () => {
    const sink = createSqlUsageSink(db.execute);
    const base = Date.UTC(2031, 5, 1);
    for (let round = 0; round < 3; round++) {
      const usage = createUsageBuffer({ sink, flushIntervalMs: 60_000 });
      for (let h = 0; h < 50; h++) {
        usage.record("key_a", W, "VALID", base + h * 3_600_000);
        if (h % 3 === round) usage.record("key_b", W, "RATE_LIMITED", base + h * 3_600_000 + 1);
      }
      await usage.close();
    }
    const fromHourly = await db.rows(
      `SELECT key_id, extract(epoch FROM date_trunc('day', hour, 'UTC')) * 1000 AS day, outcome, sum(count)::int AS n
       FROM usage_hourly GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    const daily = await db.rows(
      `SELECT key_id, extract(epoch FROM day) * 1000 AS day, outcome, count::int AS n FROM usage_daily ORDER BY 1, 2, 3`,
    );
    const shape = (rows: Record<string, unknown>[]) =>
      rows.map((r) => [r.key_id, Number(r.day), r.outcome, r.n]);
    expect(shape(daily)).toEqual(shape(fromHourly));
    expect(shape(daily)).toContainEqual(["key_a", base, "VALID", 72]);
  });

  it("reads hourly buckets from the hourly rollup", async () => {
    const base = Date.UTC(2032, 0, 1);
    const usage = createUsageBuffer({ sink: createSqlUsageSink(db.execute), flushIntervalMs: 60_000 });
    usage.record("key_a", W, "VALID", base + 10);
    usage.record("key_a", W, "VALID", base + 3_600_000 + 10);
    usage.record("key_a", W, "EXPIRED", base + 3_600_000 + 20);
    await usage.close();
    const result = resolveUsageRange(new Date(base), new Date(base + 3 * 3_600_000), "hour");
    if (!result.ok) throw new Error(result.message);
    const sums = parseUsageSums(await db.query(USAGE_SUMS_SQL.hour, usageSumsParams(W, result.range, null)));
    const answer = buildUsageFromSums({ wallet: W, range: result.range, ...sums });
    expect(answer.series.map((s) => [s.valid, s.expired])).toEqual([
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
  });
});
