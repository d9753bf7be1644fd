import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../src/db/database.js";
import { createMigratedPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { createKeyOver, verifyOver } from "./support/keys.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

// Two instances of one deployment, each with its own PostgreSQL connections (and its own LISTEN), on
// one Redis when there is one: a suspension made through one is in force on the other within 1 s
// (docs/operator.md#suspension), survives a restart of both, and lifting it restores every key.

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const WITHIN_MS = 1_000;

/** Milliseconds from `start` until `code` answers `key` on `server` (polled every 2 ms), or throws after 5 s. */
async function msUntil(server: TestServer, key: string, code: string, start: number): Promise<number> {
  for (;;) {
    const answer = await verifyOver(server.baseUrl, key);
    const elapsed = performance.now() - start;
    if (answer.code === code) return elapsed;
    if (elapsed > 5_000) throw new Error(`still ${answer.code} after ${Math.round(elapsed)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe.runIf(TEST_DATABASE_URL)("a suspension on two instances sharing PostgreSQL and Redis", () => {
  const redis = TEST_REDIS_URL === undefined ? {} : sharedRedisEnv(TEST_REDIS_URL);
  const operator = newAccount();
  const env = { OPERATOR_WALLETS: operator.address, ...redis };
  let url = "";
  let drop: (() => Promise<void>) | undefined;
  const handles: Database[] = [];
  let servers: [TestServer, TestServer];

  /** One instance: a database handle of its own on the shared PostgreSQL. */
  async function startInstance(): Promise<TestServer> {
    const database = await createDatabase(url, "");
    handles.push(database);
    return startTestServer({ database, url }, env);
  }

  beforeAll(async () => {
    const created = await createMigratedPostgresTestDatabase(TEST_DATABASE_URL ?? "");
    url = created.url;
    drop = created.drop;
    servers = [await startInstance(), await startInstance()];
  });
  afterAll(async () => {
    await Promise.all(servers?.map((server) => server.close()) ?? []);
    await Promise.all(handles.map((handle) => handle.close()));
    await removeRedisKeys(redis);
    await drop?.();
  });

  it("is in force on the other instance within 1 s, survives a restart of both, and lifting it restores every key", async () => {
    const [a, b] = servers;
    const owner = await signIn(a.baseUrl);
    const metered = await createKeyOver(a.baseUrl, owner.token, {
      name: "metered",
      credits: { remaining: 10 },
      rateLimit: { limit: 100, windowSeconds: 3600 },
    });
    const plain = await createKeyOver(a.baseUrl, owner.token, { name: "plain" });
    // Both instances hold the keys in their caches: only the announcement can change their answers.
    for (const server of [a, b]) {
      expect(await verifyOver(server.baseUrl, metered.key)).toMatchObject({ code: "VALID" });
      expect(await verifyOver(server.baseUrl, plain.key)).toMatchObject({ code: "VALID" });
    }
    const operatorSession = (await signIn(b.baseUrl, operator)).token;

    const start = performance.now();
    const suspended = await request(a.baseUrl, "POST", `/operator/wallets/${owner.wallet}/suspend`, {
      token: operatorSession,
      body: { reason: "two-instance check" },
    });
    const answered = performance.now() - start;
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    const onB = await msUntil(b, metered.key, "WALLET_SUSPENDED", start);
    const onA = await msUntil(a, plain.key, "WALLET_SUSPENDED", start);
    console.info(
      `suspension: answered in ${answered.toFixed(1)} ms; in force on instance B after ${onB.toFixed(1)} ms, on A after ${onA.toFixed(1)} ms (from the request)`,
    );
    expect(onB).toBeLessThan(WITHIN_MS);
    for (const server of [a, b]) {
      expect(await verifyOver(server.baseUrl, metered.key)).toMatchObject({ code: "WALLET_SUSPENDED" });
    }

    // A restart of both: the suspension is stored, so fresh caches read it.
    await Promise.all(servers.map((server) => server.close()));
    servers = [await startInstance(), await startInstance()];
    const [a2, b2] = servers;
    for (const server of servers) {
      expect(await verifyOver(server.baseUrl, metered.key)).toMatchObject({ code: "WALLET_SUSPENDED" });
      expect(await verifyOver(server.baseUrl, plain.key)).toMatchObject({ code: "WALLET_SUSPENDED" });
    }

    const operatorAgain = (await signIn(a2.baseUrl, operator)).token;
    const liftStart = performance.now();
    const lifted = await request(b2.baseUrl, "POST", `/operator/wallets/${owner.wallet}/unsuspend`, {
      token: operatorAgain,
      body: {},
    });
    expect(lifted.status).toBe(200);
    const liftedOnA = await msUntil(a2, metered.key, "VALID", liftStart);
    console.info(`unsuspension: in force on the other instance after ${liftedOnA.toFixed(1)} ms`);
    expect(liftedOnA).toBeLessThan(WITHIN_MS);
    // Every key as it was: the suspended verifications spent nothing (four VALID spent four credits).
    const after = await verifyOver(b2.baseUrl, metered.key);
    expect(after).toMatchObject({ code: "VALID", credits: { remaining: 6 } });
    expect(await verifyOver(a2.baseUrl, plain.key)).toMatchObject({ code: "VALID" });
    expect(await verifyOver(b2.baseUrl, plain.key)).toMatchObject({ code: "VALID" });
  });
});
