import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyCredits } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, verifyOver } from "./support/keys.js";
import { sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe.runIf(TEST_REDIS_URL)("credits in Redis over HTTP", () => {
  describeDatabases("two instances on one database and one Redis", (target) => {
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      const env = { ...sharedRedisEnv(TEST_REDIS_URL ?? ""), CREDITS_DRAIN_INTERVAL_MS: "50" };
      [a, b] = await Promise.all([startTestServer(target, env), startTestServer(target, env)]);
    });
    afterAll(() => Promise.all([a?.close(), b?.close()]));

    const storedRemaining = async (id: string) =>
      (await target.database.db.select().from(keyCredits).where(eq(keyCredits.id, id)))[0]?.remaining;

    it("spends over REST and tRPC, shows the live balance at once, and drains it to the database", async () => {
      const session = await signIn(a.baseUrl);
      const { key, apiKey } = await createKeyOver(a.baseUrl, session.token, {
        name: "m",
        credits: { remaining: 5 },
      });
      expect(await verifyOver(a.baseUrl, key, { cost: 2 })).toMatchObject({
        code: "VALID",
        credits: { remaining: 3 },
      });
      const overTrpc = await trpcClient(b.baseUrl).keys.verify.mutate({ key, cost: 1 });
      expect(overTrpc).toMatchObject({ code: "VALID", credits: { remaining: 2 } });
      expect(await verifyOver(b.baseUrl, key, { cost: 3 })).toMatchObject({
        code: "USAGE_EXCEEDED",
        credits: { remaining: 2 },
      });
      // The key answers show Redis's balance, not the database's, which lags by the drain interval.
      const listed = await request(a.baseUrl, "GET", `/api-keys/${session.wallet}`, { token: session.token });
      expect(listed.body).toMatchObject({ keys: [{ id: apiKey.id, credits: { remaining: 2 } }] });
      await expect.poll(() => storedRemaining(apiKey.id), { timeout: 5_000, interval: 50 }).toBe(2);
    });

    it("honours a PATCH of the balance on every instance within 1 s, under load", async () => {
      const session = await signIn(a.baseUrl);
      const { key, apiKey } = await createKeyOver(a.baseUrl, session.token, {
        name: "loaded",
        credits: { remaining: 1_000_000 },
      });
      let loading = true;
      const statuses = new Map<number, number>();
      const clients = Array.from({ length: 16 }, async (_, i) => {
        while (loading) {
          const { status } = await request((i % 2 === 0 ? a : b).baseUrl, "POST", "/api-keys/verify", {
            body: { key },
          });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const patched = await request(a.baseUrl, "PATCH", `/api-keys/${apiKey.id}`, {
        token: session.token,
        body: { credits: { remaining: 0 } },
      });
      expect(patched).toMatchObject({ status: 200, body: { apiKey: { credits: { remaining: 0 } } } });
      const patchedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const server of [a, b]) {
        expect(await verifyOver(server.baseUrl, key)).toMatchObject({
          code: "USAGE_EXCEEDED",
          credits: { remaining: 0 },
        });
      }
      loading = false;
      await Promise.all(clients);
      expect(Date.now() - patchedAt).toBeGreaterThanOrEqual(1_000);
      // Only answers, or a 503 while the balance was fenced: never a 500.
      expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
      await expect.poll(() => storedRemaining(apiKey.id), { timeout: 5_000, interval: 50 }).toBe(0);
    });
  });

  describeDatabases("shutdown", (target) => {
    it("drains the journal to the database before closing Redis", async () => {
      const env = { ...sharedRedisEnv(TEST_REDIS_URL ?? ""), CREDITS_DRAIN_INTERVAL_MS: "3600000" };
      const server = await startTestServer(target, env);
      const session = await signIn(server.baseUrl);
      const { key, apiKey } = await createKeyOver(server.baseUrl, session.token, {
        name: "drained at close",
        credits: { remaining: 5 },
      });
      for (let i = 0; i < 3; i++) expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID");
      const stored = async () =>
        (await target.database.db.select().from(keyCredits).where(eq(keyCredits.id, apiKey.id)))[0]
          ?.remaining;
      // No drain pass in an hour: the spends wait in the journal until the shutdown's final drain.
      expect(await stored()).toBe(5);
      await server.close();
      expect(await stored()).toBe(2);
    });
  });

  describeDatabases("Redis unreachable at start", (target) => {
    let server: TestServer;
    let port: number;
    let redis: ReturnType<typeof spawn> | undefined;
    beforeAll(async () => {
      port = await closedPort();
      server = await startTestServer(target, {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_KEY_PREFIX: "keyport:test:unreachable:",
      });
    });
    afterAll(async () => {
      await server?.close();
      redis?.kill("SIGKILL");
    });

    it("starts, verifies plain keys, answers 503 for metered ones until Redis answers", async () => {
      const session = await signIn(server.baseUrl);
      const plain = await createKeyOver(server.baseUrl, session.token, { name: "plain" });
      const metered = await createKeyOver(server.baseUrl, session.token, {
        name: "metered",
        credits: { remaining: 3 },
      });
      expect(await verifyOver(server.baseUrl, plain.key)).toMatchObject({ code: "VALID" });
      const refused = await request(server.baseUrl, "POST", "/api-keys/verify", {
        body: { key: metered.key },
      });
      expect(refused).toMatchObject({ status: 503, body: { code: "SERVICE_UNAVAILABLE" } });
      await expect(trpcClient(server.baseUrl).keys.verify.mutate({ key: metered.key })).rejects.toMatchObject(
        {
          data: { httpStatus: 503 },
        },
      );
      redis = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"], {
        stdio: "ignore",
      });
      await expect
        .poll(
          async () =>
            (await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key: metered.key } }))
              .status,
          {
            timeout: 15_000,
            interval: 200,
          },
        )
        .toBe(200);
      expect(await verifyOver(server.baseUrl, metered.key)).toMatchObject({ code: "VALID" });
    });
  });
});
