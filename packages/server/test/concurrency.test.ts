import { clearOfWindowEdge, useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, type VerificationBody } from "./support/keys.js";
import { createLoadClient, type LoadClient } from "./support/load.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";
import { AnswerTally, type CountsBody, usageKeys } from "./support/tally.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

interface UsageBody {
  totals: CountsBody;
  keys: Array<{ keyId: string; name: string } & CountsBody>;
  series: Array<{ start: string } & CountsBody>;
}

async function verifyAll(clients: LoadClient[], keys: string[]): Promise<VerificationBody[]> {
  return Promise.all(
    keys.map(async (key, i) => {
      const client = clients[i % clients.length];
      if (client === undefined) throw new Error("no client");
      const { status, body } = await client.post("/api-keys/verify", { key });
      if (status !== 200) throw new Error(`verify answered ${status}`);
      return body as VerificationBody;
    }),
  );
}

describeDatabases("verification under concurrency", (target) => {
  const clock = useMovableDate();
  let server: TestServer;
  let load: LoadClient;

  beforeAll(async () => {
    server = await startTestServer(target, { USAGE_FLUSH_INTERVAL_MS: "60000" });
    load = createLoadClient(server.baseUrl, 100);
  });
  afterAll(async () => {
    load.close();
    await server.close();
  });

  it("lets exactly 500 of 2,000 concurrent verifications of a key limited to 500 through", async () => {
    await clearOfWindowEdge(86_400);
    const { token } = await signIn(server.baseUrl);
    const { key } = await createKeyOver(server.baseUrl, token, {
      name: "hot",
      rateLimit: { limit: 500, windowSeconds: 86_400 },
    });
    const answers = await verifyAll(
      [load],
      Array.from({ length: 2_000 }, () => key),
    );
    expect(answers.filter((a) => a.code === "VALID")).toHaveLength(500);
    expect(answers.filter((a) => a.code === "RATE_LIMITED")).toHaveLength(1_500);
    expect(Math.min(...answers.map((a) => a.ratelimit?.remaining ?? -1))).toBe(0);
  });

  describe.runIf(TEST_REDIS_URL)("with REDIS_URL", () => {
    it("lets exactly 500 through across two apps sharing one Redis", async () => {
      await clearOfWindowEdge(86_400);
      const redisEnv = sharedRedisEnv(TEST_REDIS_URL ?? "");
      const [a, b] = await Promise.all([
        startTestServer(target, redisEnv),
        startTestServer(target, redisEnv),
      ]);
      const clients = [createLoadClient(a.baseUrl, 50), createLoadClient(b.baseUrl, 50)];
      try {
        const { token } = await signIn(a.baseUrl);
        const { key } = await createKeyOver(a.baseUrl, token, {
          name: "shared limit",
          rateLimit: { limit: 500, windowSeconds: 86_400 },
        });
        const answers = await verifyAll(
          clients,
          Array.from({ length: 2_000 }, () => key),
        );
        expect(answers.filter((a) => a.code === "VALID")).toHaveLength(500);
        expect(answers.filter((a) => a.code === "RATE_LIMITED")).toHaveLength(1_500);
      } finally {
        for (const client of clients) client.close();
        await Promise.all([a.close(), b.close()]);
        await removeRedisKeys(redisEnv);
      }
    });
  });

  it("counts 5,000 concurrent verifications across 10 keys exactly, per key and per outcome", async () => {
    const { token, wallet } = await signIn(server.baseUrl);
    const tally = new AnswerTally();
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const keys: string[] = [];
    for (let i = 0; i < 10; i++) {
      const body: Record<string, unknown> = { name: `key ${i}` };
      if (i < 3) body.rateLimit = { limit: 150 + i, windowSeconds: 86_400 };
      if (i === 4) body.expiresAt = new Date(Date.now() + 60_000).toISOString();
      const created = await createKeyOver(server.baseUrl, token, body);
      keys.push(created.key);
      if (i === 3) await request(server.baseUrl, "DELETE", `/api-keys/${created.apiKey.id}`, { token });
    }
    // Key 4 expires; its answers before and after count too.
    const [before] = await verifyAll([load], [keys[4] ?? ""]);
    clock.advance(60_001);
    const [expired] = await verifyAll([load], [keys[4] ?? ""]);
    expect(expired?.code).toBe("EXPIRED");
    for (const answer of [before, expired]) if (answer) tally.add(answer);

    // Keys 0 to 2 count in a day's window, from here on.
    await clearOfWindowEdge(86_400);
    const batch = Array.from({ length: 5_000 }, (_, i) => keys[i % keys.length] ?? "");
    for (const answer of await verifyAll([load], batch)) tally.add(answer);
    expect(tally.totals.requests).toBeGreaterThanOrEqual(5_000);
    expect(
      tally.totals.valid * tally.totals.rateLimited * tally.totals.expired * tally.totals.revoked,
    ).toBeGreaterThan(0);

    await server.app.services.verification.usage.flush();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const rest = await request(
      server.baseUrl,
      "GET",
      `/api-keys/${wallet}/usage?granularity=hour&from=${from}&to=${to}`,
      {
        token,
      },
    );
    expect(rest.status).toBe(200);
    const usage = rest.body as UsageBody;
    expect(usage.totals).toEqual(tally.totals);
    expect(usageKeys(usage)).toEqual(tally.keys());
    const seriesSum = usage.series.reduce((sum, bucket) => sum + bucket.requests, 0);
    expect(seriesSum).toBe(tally.totals.requests);

    const overTrpc = await trpcClient(server.baseUrl, token).usage.get.query({
      wallet,
      from: new Date(from),
      to: new Date(to),
      granularity: "day",
    });
    expect(overTrpc.totals).toEqual(tally.totals);
    expect(overTrpc.from).toBeInstanceOf(Date);
  });
});
