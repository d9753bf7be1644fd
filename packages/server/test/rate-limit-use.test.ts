import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, verifyOver } from "./support/keys.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

// Day-long windows: no test here runs long enough to see one end, so `used` is exactly what was spent.
const DAY = 86_400;

type Session = { token: string; wallet: string };
interface Use {
  name: string;
  scope: "key" | "wallet";
  limit: number;
  windowSeconds: number;
  autoApply: boolean;
  used: number;
  remaining: number;
  resetAt: string;
}
interface Recent {
  outcome: string;
  refusedBy: { name: string; scope: "key" | "wallet" } | null;
}

const redisUrl = process.env.TEST_REDIS_URL;
const counters: Array<{ name: string; env: () => Record<string, string> }> = [
  { name: "in-process counters", env: () => ({}) },
];
if (redisUrl) counters.push({ name: "Redis counters", env: () => sharedRedisEnv(redisUrl) });

describe.each(counters)("a key's limits and their live use, with $name", ({ env: makeEnv }) => {
  describeDatabases("", (target) => {
    let server: TestServer;
    let owner: Session;
    let stranger: Session;
    const env = { ...makeEnv(), USAGE_FLUSH_INTERVAL_MS: "3600000" };

    beforeAll(async () => {
      server = await startTestServer(target, env);
      [owner, stranger] = await Promise.all([signIn(server.baseUrl), signIn(server.baseUrl)]);
    });
    afterAll(async () => {
      await server?.close();
      await removeRedisKeys(env);
    });

    const useOf = async (id: string, session: Session = owner) =>
      request(server.baseUrl, "GET", `/api-keys/${id}/ratelimits`, { token: session.token });
    const usedOf = async (id: string) => {
      const { status, body } = await useOf(id);
      expect(status).toBe(200);
      return (body as { ratelimits: Use[] }).ratelimits;
    };
    const recentOf = async (id: string) => {
      await server.app.services.verification.usage.flush();
      const { status, body } = await request(server.baseUrl, "GET", `/api-keys/${id}/verifications`, {
        token: owner.token,
      });
      expect(status).toBe(200);
      return (body as { verifications: Recent[] }).verifications;
    };

    it("shows every limit of the key and its wallet with what verifications spent, and reading spends nothing", async () => {
      const put = await request(server.baseUrl, "PUT", `/api-keys/${owner.wallet}/limits`, {
        token: owner.token,
        body: { rateLimits: [{ name: "wallet-cap", limit: 100, windowSeconds: DAY }] },
      });
      expect(put.status).toBe(200);
      const { key, apiKey } = await createKeyOver(server.baseUrl, owner.token, {
        name: "model api",
        rateLimits: [
          { name: "requests", limit: 3, windowSeconds: DAY, autoApply: true },
          { name: "tokens", limit: 1_000, windowSeconds: DAY, autoApply: false },
        ],
      });

      const fresh = await usedOf(apiKey.id);
      expect(fresh.map(({ resetAt: _r, ...rest }) => rest)).toEqual([
        {
          name: "requests",
          scope: "key",
          limit: 3,
          windowSeconds: DAY,
          autoApply: true,
          used: 0,
          remaining: 3,
        },
        {
          name: "tokens",
          scope: "key",
          limit: 1_000,
          windowSeconds: DAY,
          autoApply: false,
          used: 0,
          remaining: 1_000,
        },
        {
          name: "wallet-cap",
          scope: "wallet",
          limit: 100,
          windowSeconds: DAY,
          autoApply: true,
          used: 0,
          remaining: 100,
        },
      ]);
      // resetAt is the end of the current (epoch-aligned) window.
      for (const limit of fresh) {
        const reset = Date.parse(limit.resetAt);
        expect(reset % (DAY * 1000)).toBe(0);
        expect(reset).toBeGreaterThan(Date.now());
      }

      for (let i = 0; i < 2; i++) {
        const answer = await verifyOver(server.baseUrl, key, { ratelimits: [{ name: "tokens", cost: 250 }] });
        expect(answer.code).toBe("VALID");
      }
      const after = (await usedOf(apiKey.id)).map((l) => [l.name, l.used, l.remaining]);
      expect(after).toEqual([
        ["requests", 2, 1],
        ["tokens", 500, 500],
        ["wallet-cap", 2, 98],
      ]);
      // Reading twice spends nothing.
      expect((await usedOf(apiKey.id)).map((l) => [l.name, l.used, l.remaining])).toEqual(after);

      expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID");
      expect((await verifyOver(server.baseUrl, key)).code).toBe("RATE_LIMITED");
      // The refusal spent none of them.
      expect((await usedOf(apiKey.id)).map((l) => [l.name, l.used])).toEqual([
        ["requests", 3],
        ["tokens", 500],
        ["wallet-cap", 3],
      ]);

      // tRPC answers the same, with Dates.
      const overTrpc = await trpcClient(server.baseUrl, owner.token).keys.rateLimitUse.query({
        id: apiKey.id,
      });
      expect(overTrpc.ratelimits.map((l) => [l.name, l.used, l.resetAt instanceof Date])).toEqual([
        ["requests", 3, true],
        ["tokens", 500, true],
        ["wallet-cap", 3, true],
      ]);

      // Recent verifications name the refusing limit, and only on the refused one.
      const recent = await recentOf(apiKey.id);
      expect(recent.map((r) => [r.outcome, r.refusedBy])).toEqual([
        ["RATE_LIMITED", { name: "requests", scope: "key" }],
        ["VALID", null],
        ["VALID", null],
        ["VALID", null],
      ]);
    });

    it("names a wallet limit that refuses, with its scope", async () => {
      const session = await signIn(server.baseUrl);
      const put = await request(server.baseUrl, "PUT", `/api-keys/${session.wallet}/limits`, {
        token: session.token,
        body: { rateLimits: [{ name: "shared", limit: 1, windowSeconds: DAY }] },
      });
      expect(put.status).toBe(200);
      const { key, apiKey } = await createKeyOver(server.baseUrl, session.token, { name: "plain" });
      expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID");
      expect((await verifyOver(server.baseUrl, key)).code).toBe("RATE_LIMITED");
      const { body } = await useOf(apiKey.id, session);
      expect((body as { ratelimits: Use[] }).ratelimits.map((l) => [l.name, l.scope, l.used])).toEqual([
        ["shared", "wallet", 1],
      ]);
      await server.app.services.verification.usage.flush();
      const listed = await request(server.baseUrl, "GET", `/api-keys/${apiKey.id}/verifications`, {
        token: session.token,
      });
      const [refused] = (listed.body as { verifications: Recent[] }).verifications;
      expect(refused?.refusedBy).toEqual({ name: "shared", scope: "wallet" });
    });

    it("answers [] for a key without limits, 404 for another wallet's key and 401 without a session", async () => {
      const { apiKey } = await createKeyOver(server.baseUrl, stranger.token, { name: "unlimited" });
      expect((await useOf(apiKey.id)).status).toBe(404);
      const own = await useOf(apiKey.id, stranger);
      expect(own.status).toBe(200);
      expect(own.body).toEqual({ ratelimits: [] });
      const anonymous = await request(server.baseUrl, "GET", `/api-keys/${apiKey.id}/ratelimits`);
      expect(anonymous.status).toBe(401);
    });
  });
});
