import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

// At verification a wallet's plan applies (docs/plans.md#at-verification): its rateLimits wallet-wide
// and its keyRateLimit on every key (scope `plan`, in the same one check as the key's and wallet's),
// a permission only when both key and plan grant it, and `plan: { id, name }` in the answer. With
// and without Redis.

interface Answer {
  valid: boolean;
  code: string;
  plan: { id: string; name: string } | null;
  ratelimit: { name: string; scope: string; remaining: number } | null;
  ratelimits: { name: string; scope: string }[];
}

const redisUrl = process.env.TEST_REDIS_URL;
const limiters: Array<[string, () => Record<string, string>]> = [
  ["in-process limits", () => ({})],
  ...(redisUrl
    ? [["Redis limits", () => sharedRedisEnv(redisUrl)] as [string, () => Record<string, string>]]
    : []),
];

for (const [limiter, limiterEnv] of limiters) {
  describeDatabases(`a wallet's plan at verification (${limiter})`, (target) => {
    const operator = newAccount();
    const env = limiterEnv();
    let server: TestServer;
    let session: string;
    const op = (method: "POST" | "PATCH", path: string, body: unknown) =>
      request(server.baseUrl, method, path, { token: session, body });
    const verify = async (key: string, body: Record<string, unknown> = {}) =>
      (await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key, ...body } })).body as Answer;
    /** A wallet with `count` keys holding `permissions`, put on `planId` once they exist. */
    const walletOn = async (planId: string | null, count = 1, permissions: string[] = []) => {
      const owner = await signIn(server.baseUrl);
      const keys: string[] = [];
      for (let i = 0; i < count; i++) {
        const created = await request(server.baseUrl, "POST", "/api-keys", {
          token: owner.token,
          body: { name: `k${i}`, permissions },
        });
        expect(created.status).toBe(201);
        keys.push((created.body as { key: string }).key);
      }
      if (planId !== null) {
        const set = await op("POST", `/operator/wallets/${owner.wallet}/plan`, { planId, reason: "test" });
        expect(set.status, JSON.stringify(set.body)).toBe(200);
      }
      return { owner, keys };
    };

    beforeAll(async () => {
      server = await startTestServer(target, { ...env, OPERATOR_WALLETS: operator.address });
      session = (await signIn(server.baseUrl, operator)).token;
      for (const plan of [
        { id: "shared", name: "Shared", rateLimits: [{ name: "calls", limit: 2, windowSeconds: 600 }] },
        { id: "perkey", name: "Per key", keyRateLimit: { limit: 1, windowSeconds: 600 } },
        { id: "prices", name: "Prices only", permissions: ["prices:*"] },
        {
          id: "tokens",
          name: "Tokens",
          rateLimits: [{ name: "tokens", limit: 10, windowSeconds: 600, autoApply: false }],
        },
      ]) {
        expect((await op("POST", "/operator/plans", plan)).status).toBe(201);
      }
    });
    afterAll(async () => {
      await server.close();
      await removeRedisKeys(env);
    });

    it("names the default plan in every answer of a wallet on no other, and applies nothing of it", async () => {
      const { keys } = await walletOn(null);
      const answer = await verify(keys[0] ?? "");
      expect(answer).toMatchObject({ valid: true, plan: { id: "free", name: "Free" }, ratelimits: [] });
      expect((await verify("kp_nosuchkey")).plan).toBeNull();
    });

    it("applies the plan's rateLimits wallet-wide: two keys share them, and the refusal names the limit with scope plan", async () => {
      const { owner, keys } = await walletOn("shared", 2);
      const [a = "", b = ""] = keys;
      const first = await verify(a);
      expect(first).toMatchObject({ valid: true, plan: { id: "shared", name: "Shared" } });
      expect(first.ratelimits).toEqual([
        expect.objectContaining({ name: "calls", scope: "plan", remaining: 1 }),
      ]);
      expect((await verify(b)).valid).toBe(true);
      const refused = await verify(a);
      expect(refused).toMatchObject({ valid: false, code: "RATE_LIMITED" });
      expect(refused.ratelimit).toMatchObject({ name: "calls", scope: "plan", remaining: 0 });
      expect((await verify(b)).code).toBe("RATE_LIMITED");
      // The key's recent verifications name the plan's limit as the one that refused.
      await server.app.services.verification.usage.flush();
      const keyId = ((await verify(a)) as unknown as { keyId: string }).keyId;
      await server.app.services.verification.usage.flush();
      const recent = await request(server.baseUrl, "GET", `/api-keys/${keyId}/verifications`, {
        token: owner.token,
      });
      expect(recent.status).toBe(200);
      expect(JSON.stringify(recent.body)).toContain('"refusedBy":{"name":"calls","scope":"plan"}');
      // Another wallet on the same plan counts on its own.
      const other = await walletOn("shared");
      expect((await verify(other.keys[0] ?? "")).valid).toBe(true);
    });

    it("applies keyRateLimit to every key on its own, named plan_key", async () => {
      const { keys } = await walletOn("perkey", 2);
      const [a = "", b = ""] = keys;
      expect((await verify(a)).valid).toBe(true);
      const refused = await verify(a);
      expect(refused.code).toBe("RATE_LIMITED");
      expect(refused.ratelimit).toMatchObject({ name: "plan_key", scope: "plan" });
      expect((await verify(b)).valid).toBe(true);
    });

    it("costs a plan limit named in ratelimits, and still answers 400 for a name no level has", async () => {
      const { keys } = await walletOn("tokens");
      const key = keys[0] ?? "";
      // Not auto-applied: a verification naming nothing leaves it alone.
      expect((await verify(key)).ratelimits).toEqual([]);
      const spent = await verify(key, { ratelimits: [{ name: "tokens", cost: 7 }] });
      expect(spent.ratelimits).toEqual([
        expect.objectContaining({ name: "tokens", scope: "plan", remaining: 3 }),
      ]);
      expect((await verify(key, { ratelimits: [{ name: "tokens", cost: 4 }] })).code).toBe("RATE_LIMITED");
      const unknown = await request(server.baseUrl, "POST", "/api-keys/verify", {
        body: { key, ratelimits: [{ name: "nope", cost: 1 }] },
      });
      expect(unknown.status).toBe(400);
    });

    it("grants a permission only when both the key and the plan grant it", async () => {
      const { keys } = await walletOn("prices", 1, ["*"]);
      const key = keys[0] ?? "";
      expect((await verify(key, { permissions: ["prices:read"] })).code).toBe("VALID");
      const refused = await verify(key, { permissions: ["chat:send"] });
      expect(refused).toMatchObject({ valid: false, code: "INSUFFICIENT_PERMISSIONS" });
      // The key keeps what it holds (nothing deleted); the plan decides what it is granted.
      expect((refused as unknown as { permissions: string[] }).permissions).toEqual(["*"]);
      const narrow = await walletOn("prices", 1, ["prices:history"]);
      expect((await verify(narrow.keys[0] ?? "", { permissions: ["prices:read"] })).code).toBe(
        "INSUFFICIENT_PERMISSIONS",
      );
    });

    it("verifies under a plan edit and a wallet's plan change from the next verification on this instance", async () => {
      expect((await op("POST", "/operator/plans", { id: "edited", name: "Edited" })).status).toBe(201);
      const { owner, keys } = await walletOn("edited", 1, ["*"]);
      const key = keys[0] ?? "";
      expect((await verify(key, { permissions: ["chat:send"] })).code).toBe("VALID");
      expect((await op("PATCH", "/operator/plans/edited", { permissions: ["prices:*"] })).status).toBe(200);
      expect((await verify(key, { permissions: ["chat:send"] })).code).toBe("INSUFFICIENT_PERMISSIONS");
      await op("POST", `/operator/wallets/${owner.wallet}/plan`, { planId: "free", reason: "back" });
      const back = await verify(key, { permissions: ["chat:send"] });
      expect(back).toMatchObject({ code: "VALID", plan: { id: "free" } });
    });

    it("puts a wallet whose paid plan ended on the default plan at once, without any change announced", async () => {
      const { owner, keys } = await walletOn(null, 1, ["*"]);
      const until = new Date(Date.now() + 1500).toISOString();
      await op("POST", `/operator/wallets/${owner.wallet}/plan`, {
        planId: "prices",
        until,
        reason: "trial",
      });
      const key = keys[0] ?? "";
      expect(await verify(key, { permissions: ["chat:send"] })).toMatchObject({
        code: "INSUFFICIENT_PERMISSIONS",
        plan: { id: "prices" },
      });
      await new Promise((resolve) => setTimeout(resolve, Date.parse(until) - Date.now() + 50));
      expect(await verify(key, { permissions: ["chat:send"] })).toMatchObject({
        code: "VALID",
        plan: { id: "free" },
      });
      const view = await request(server.baseUrl, "GET", `/wallets/${owner.wallet}`, { token: owner.token });
      expect(view.body).toMatchObject({ plan: { id: "free", paidUntil: null } });
    });
  });
}
