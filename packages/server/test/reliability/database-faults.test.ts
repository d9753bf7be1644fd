import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../src/db/database.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "../support/databases.js";
import { type ServerProcess, spawnServer } from "../support/process.js";
import { dumpTables } from "./support.js";
import {
  answeredFor,
  COUNTED,
  type Counted,
  createTenant,
  newTally,
  runTraffic,
  SECRET_SHAPE,
  type Tally,
  type Tenant,
  usageTotals,
} from "./traffic.js";

// PostgreSQL going away under load, on a database of this test's own: new connections refused
// (ALLOW_CONNECTIONS false) and every backend terminated, repeatedly, for 3 s. The server process
// must answer 503 without hanging, stay up, serve again within 5 s of the database returning,
// keep every key it answered 201 for, and still count every verification it answered.

const OUTAGE_MS = 3_000;
/** The contract: everything succeeds again from this long after the database returns. */
const RECOVERY_MS = 5_000;
/** A request that has not been answered after this long counts as hung. */
const HANG_MS = 10_000;
/** How often the outage terminates whatever backends the server managed to open (fault injection). */
const TERMINATE_EVERY_MS = 100;

describe.runIf(TEST_DATABASE_URL)("PostgreSQL going away mid-load [postgres]", () => {
  let database: { url: string; drop(): Promise<void> };
  let admin: postgres.Sql;
  let server: ServerProcess;
  const setup = newTally();
  const faultSecrets: string[] = [];
  const tenants: Tenant[] = [];

  beforeAll(async () => {
    if (!TEST_DATABASE_URL) return;
    database = await createPostgresTestDatabase(TEST_DATABASE_URL);
    admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    server = await spawnServer({ DATABASE_URL: database.url, MAX_ACTIVE_KEYS_PER_WALLET: "100000" });
    for (let i = 0; i < 2; i++) tenants.push(await createTenant(server.baseUrl, setup, 2_000));
  }, 120_000);

  afterAll(async () => {
    if (!TEST_DATABASE_URL) return;
    await server.stop("SIGTERM");
    await admin.unsafe(`alter database "${new URL(database.url).pathname.slice(1)}" allow_connections true`);
    // No secret or session token in the process's log or in any table.
    const opened = await createDatabase(database.url, "");
    const dump = JSON.stringify(await dumpTables(opened));
    await opened.close();
    const logs = server.output();
    for (const secret of [...setup.secrets, ...faultSecrets]) {
      expect(logs).not.toContain(secret);
      expect(dump).not.toContain(secret);
    }
    expect(logs).not.toMatch(SECRET_SHAPE);
    expect(dump).not.toMatch(SECRET_SHAPE);
    await admin.end();
    await database.drop();
  }, 60_000);

  it("answers 503 without hanging, stays up, recovers within 5 s, and loses no created key or count", async () => {
    const name = new URL(database.url).pathname.slice(1);
    const tally: Tally = newTally();
    let running = true;
    const traffic = runTraffic({
      baseUrl: server.baseUrl,
      tenants,
      tally,
      workers: 20,
      running: () => running,
      alsoAccept: new Set([503]),
      requestTimeoutMs: HANG_MS,
    });
    let outageFrom = 0;
    let back = 0;
    let health: number | string = "not asked";
    try {
      // Traffic is flowing (and keys are cached) before the database goes away.
      await expect.poll(() => tally.timeline.length, { timeout: 30_000 }).toBeGreaterThan(200);
      outageFrom = Date.now();
      try {
        await admin.unsafe(`alter database "${name}" allow_connections false`);
        while (Date.now() < outageFrom + OUTAGE_MS) {
          await admin.unsafe(
            `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
          );
          await new Promise((resolve) => setTimeout(resolve, TERMINATE_EVERY_MS));
        }
        health = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(HANG_MS) }).then(
          (res) => res.status,
          (error: unknown) => (error instanceof Error ? error.name : String(error)),
        );
      } finally {
        await admin.unsafe(`alter database "${name}" allow_connections true`);
      }
      back = Date.now();
      // Traffic runs until plenty of requests started past the recovery bound have been answered.
      await expect
        .poll(() => tally.timeline.filter((entry) => entry.at >= back + RECOVERY_MS).length, {
          timeout: 60_000,
        })
        .toBeGreaterThan(200);
    } finally {
      running = false;
      await traffic;
    }
    faultSecrets.push(...tally.secrets);
    expect(tally.leaks).toEqual([]);

    // The process stays up; if it died, its last words say why.
    expect(server.child.exitCode, server.output().slice(-2_000)).toBeNull();
    // Every request got an answer (none hung past HANG_MS, none was dropped), and only successes or 503s.
    expect(tally.errors, `${tally.errors.slice(0, 20).join("\n")}\n${server.output().slice(-3_000)}`).toEqual(
      [],
    );
    expect(health).toBe(503);
    const during = tally.timeline.filter((entry) => entry.at >= outageFrom && entry.at < back);
    expect(during.some((entry) => entry.status === 503)).toBe(true);
    // From 5 s after the database returned, everything succeeds again.
    const late = tally.timeline.filter((entry) => entry.at >= back + RECOVERY_MS);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((entry) => entry.status >= 500)).toEqual([]);

    // No key whose creation was answered 201 is missing.
    const db = postgres(database.url, { max: 1, onnotice: () => {} });
    const rows = await db.unsafe("select id from api_keys");
    await db.end();
    const stored = new Set(rows.map((row) => String(row.id)));
    expect(tally.created.filter((id) => !stored.has(id))).toEqual([]);

    // Counts the buffer could not write during the outage were kept and written after it: every
    // verification answered is counted (a request the client gave up on may be counted too).
    const sum = (counts: Record<Counted, number>) => COUNTED.reduce((total, code) => total + counts[code], 0);
    for (const tenant of tenants) {
      const answered = answeredFor(setup, tenant);
      const add = answeredFor(tally, tenant);
      for (const code of COUNTED) answered[code] += add[code];
      // The buffer writes them on its next flushes.
      await expect
        .poll(async () => sum(await usageTotals(server.baseUrl, tenant)), { timeout: 15_000, interval: 250 })
        .toBeGreaterThanOrEqual(sum(answered));
      const counted = await usageTotals(server.baseUrl, tenant);
      for (const code of COUNTED) expect(counted[code]).toBeGreaterThanOrEqual(answered[code]);
      expect(sum(counted)).toBeLessThanOrEqual(sum(answered) + (tally.inDoubt.get(tenant.wallet) ?? 0));
    }
  }, 120_000);
});
