import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

// The real server process (`tsx src/main.ts`) under 50 connections of mixed traffic, on ONE
// database per run (PostgreSQL when TEST_DATABASE_URL is set, else PGlite on disk): no errors,
// usage equal to the verifications answered, exactly that on SIGTERM too, and no secret anywhere it
// should not be. (PostgreSQL going away mid-load: database-faults.test.ts.)

const KIND = TEST_DATABASE_URL ? "postgres" : "pglite";
// RELIABILITY_LOAD_SECONDS shortens the run while working on this file; CI runs the full minute.
const LOAD_MS = Number(process.env.RELIABILITY_LOAD_SECONDS ?? 60) * 1_000;
const WORKERS = 50;
const ENV = { MAX_ACTIVE_KEYS_PER_WALLET: "100000", USAGE_FLUSH_INTERVAL_MS: "500" };

describe(`the server process under load [${KIND}]`, () => {
  let databaseUrl: string | undefined;
  let dataDir: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let server: ServerProcess;
  const outputs: string[] = [];
  const tallies: Tally[] = [];
  const tenants: Tenant[] = [];
  /** Counted verifications answered so far, across every phase and process. */
  const expected = new Map<string, Record<Counted, number>>();

  const start = async () => {
    const env: Record<string, string> = { ...ENV };
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    if (dataDir) env.DATA_DIR = dataDir;
    server = await spawnServer(env);
    return server;
  };
  const stop = async () => {
    const code = await server.stop("SIGTERM");
    outputs.push(server.output());
    return code;
  };
  const addToExpected = (tally: Tally) => {
    for (const tenant of tenants) {
      const sum = expected.get(tenant.wallet) ?? { VALID: 0, RATE_LIMITED: 0, EXPIRED: 0, REVOKED: 0 };
      const add = answeredFor(tally, tenant);
      for (const code of COUNTED) sum[code] += add[code];
      expected.set(tenant.wallet, sum);
    }
  };
  const expectUsageToMatch = async () => {
    for (const tenant of tenants) {
      expect(await usageTotals(server.baseUrl, tenant)).toEqual(expected.get(tenant.wallet));
    }
  };

  beforeAll(async () => {
    if (TEST_DATABASE_URL) {
      const created = await createPostgresTestDatabase(TEST_DATABASE_URL);
      databaseUrl = created.url;
      drop = created.drop;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), "keyport-reliability-"));
    }
    await start();
    const setup = newTally();
    tallies.push(setup);
    for (let i = 0; i < 4; i++) tenants.push(await createTenant(server.baseUrl, setup, 2_000 * (i + 1)));
  }, 120_000);

  afterAll(async () => {
    if (server.child.exitCode === null) await stop();
    const secrets = tallies.flatMap((tally) => tally.secrets);
    // Secrets: not in a log line of any process, not in any table, not in any answer but their own.
    const logs = outputs.join("\n");
    const database = await createDatabase(databaseUrl, dataDir ?? "");
    const dump = JSON.stringify(await dumpTables(database));
    await database.close();
    for (const secret of secrets) {
      expect(logs).not.toContain(secret);
      expect(dump).not.toContain(secret);
    }
    expect(logs).not.toMatch(SECRET_SHAPE);
    expect(dump).not.toMatch(SECRET_SHAPE);
    expect(tallies.flatMap((tally) => tally.leaks)).toEqual([]);
    expect(secrets.length).toBeGreaterThan(100);
    await drop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it(
    `serves ${LOAD_MS / 1000} s of mixed traffic at ${WORKERS} connections with zero errors, and usage equals the verifications answered`,
    async () => {
      const tally = newTally();
      tallies.push(tally);
      const until = Date.now() + LOAD_MS;
      await runTraffic({
        baseUrl: server.baseUrl,
        tenants,
        tally,
        workers: WORKERS,
        running: () => Date.now() < until,
      });
      expect(tally.errors).toEqual([]);
      expect([...tally.statuses.keys()].filter((key) => !/ 20[01]$/.test(key))).toEqual([]);
      addToExpected(tally);
      // Every outcome happened, so every counter was exercised.
      const all = tenants.map((tenant) => answeredFor(tally, tenant));
      for (const code of COUNTED)
        expect(all.reduce((sum, counts) => sum + counts[code], 0)).toBeGreaterThan(0);
      // Flushes run every 500 ms; give them a bounded while to land, then demand exact equality.
      await expect
        .poll(() => Promise.all(tenants.map((t) => usageTotals(server.baseUrl, t))), {
          timeout: 15_000,
          interval: 250,
        })
        .toEqual(tenants.map((t) => expected.get(t.wallet)));
      await expectUsageToMatch();
      console.info(`load [${KIND}]: ${JSON.stringify(Object.fromEntries(tally.statuses))}`);
    },
    LOAD_MS + 120_000,
  );

  it("counts exactly the verifications the clients heard answered across a SIGTERM under load, and exits 0", async () => {
    const tally = newTally();
    tallies.push(tally);
    let stopping = false;
    let stoppedAt = 0;
    const traffic = runTraffic({
      baseUrl: server.baseUrl,
      tenants,
      tally,
      workers: WORKERS,
      // Keep sending through the shutdown: each worker stops at its first refused connection.
      running: () => !stopping || Date.now() < stoppedAt + 30_000,
      stopOnThrow: true,
    });
    // Traffic is in full flow (every worker has had answers) before the SIGTERM.
    await expect.poll(() => tally.timeline.length, { timeout: 30_000 }).toBeGreaterThan(WORKERS * 20);
    // SIGTERM while all 50 workers are mid-request; they stop at their first refused connection.
    const exited = stop();
    stopping = true;
    stoppedAt = Date.now();
    expect(await exited).toBe(0);
    await traffic;
    const errors = tally.errors.filter((error) => !error.startsWith("request threw"));
    expect(errors).toEqual([]);
    await start();
    // Exactly what the client heard: an answered request is delivered before its socket closes, and
    // a request the server closed on unanswered (a failed worker's last) was never run, so never counted.
    for (const tenant of tenants) {
      const before = expected.get(tenant.wallet) ?? { VALID: 0, RATE_LIMITED: 0, EXPIRED: 0, REVOKED: 0 };
      const answered = answeredFor(tally, tenant);
      const heard = { ...before };
      for (const code of COUNTED) heard[code] += answered[code];
      expect(await usageTotals(server.baseUrl, tenant)).toEqual(heard);
      expected.set(tenant.wallet, heard);
    }
  }, 120_000);
});
