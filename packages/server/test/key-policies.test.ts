import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, type VerificationBody, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { forTier } from "./support/tier.js";

type Session = { token: string; wallet: string };

interface KeyBody {
  id: string;
  name: string;
  status: string;
  expiresAt: string | null;
  rateLimit: { limit: number; windowSeconds: number } | null;
  rateLimits: { name: string; limit: number; windowSeconds: number; autoApply: boolean }[];
  permissions: string[];
  credits: { remaining: number; refill: unknown; refilledAt: string | null } | null;
  meta: Record<string, unknown> | null;
}

const DAY_MS = 86_400_000;
const count = (answers: VerificationBody[], code: string) => answers.filter((a) => a.code === code).length;

/** A JSON object whose JSON is exactly `bytes` UTF-8 bytes long. */
function metaOfBytes(bytes: number): Record<string, string> {
  const overhead = JSON.stringify({ pad: "" }).length;
  return { pad: "x".repeat(bytes - overhead) };
}

describeDatabases("key policies", (target) => {
  const clock = useMovableDate();
  let a: TestServer;
  let b: TestServer;
  let session: Session;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "1000" }),
      startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "1000" }),
    ]);
    session = await signIn(a.baseUrl);
  });
  afterAll(() => Promise.all([a?.close(), b?.close()]));

  const create = (body: Record<string, unknown>, s: Session = session) =>
    createKeyOver(a.baseUrl, s.token, { name: "policy key", ...body });
  const patch = (id: string, body: Record<string, unknown>, s: Session = session) =>
    request(a.baseUrl, "PATCH", `/api-keys/${id}`, { token: s.token, body });

  describe("create and read back", () => {
    it("returns permissions (duplicates dropped), credits and meta on create and in the list", async () => {
      const meta = { customerId: "cus_123", plan: "pro", seats: 3, tags: ["a", "b"], nested: { ok: true } };
      const { apiKey } = await create({
        permissions: ["prices:read", "chat:*", "prices:read"],
        credits: { remaining: 500, refill: { interval: "monthly", amount: 1_000 } },
        meta,
      });
      const created = apiKey as unknown as KeyBody;
      expect(created.permissions).toEqual(["prices:read", "chat:*"]);
      expect(created.credits).toMatchObject({
        remaining: 500,
        refill: { interval: "monthly", amount: 1_000 },
      });
      expect(created.meta).toEqual(meta);
      const list = await request(a.baseUrl, "GET", `/api-keys/${session.wallet}`, { token: session.token });
      const listed = (list.body as { keys: KeyBody[] }).keys.find((k) => k.id === created.id);
      expect(listed).toMatchObject({ permissions: created.permissions, credits: created.credits, meta });
    });

    it("defaults to no permissions, no credits and no meta", async () => {
      const { apiKey, key } = await create({});
      expect(apiKey).toMatchObject({ permissions: [], credits: null, meta: null });
      expect(await verifyOver(a.baseUrl, key, { cost: 1_000 })).toMatchObject({
        code: "VALID",
        permissions: [],
        credits: null,
        meta: null,
      });
    });

    it("accepts meta of exactly 1 KiB of JSON and refuses one byte more with 400", async () => {
      const { apiKey } = await create({ meta: metaOfBytes(1024) });
      expect(apiKey).toMatchObject({ meta: metaOfBytes(1024) });
      const response = await request(a.baseUrl, "POST", "/api-keys", {
        token: session.token,
        body: { name: "too big", meta: metaOfBytes(1025) },
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toContain("1024 bytes");
    });

    it("counts meta's size in UTF-8 bytes, not characters", async () => {
      // 400 three-byte characters: 1,200 bytes although only about 410 characters of JSON.
      const response = await request(a.baseUrl, "POST", "/api-keys", {
        token: session.token,
        body: { name: "wide", meta: { note: "€".repeat(400) } },
      });
      expect(response.status).toBe(400);
    });

    it("answers 400 for every malformed new field, on create and on update", async () => {
      const { apiKey } = await create({});
      const bad: Record<string, unknown>[] = [
        { permissions: "prices:read" },
        { permissions: ["Prices:Read"] },
        { permissions: ["has space"] },
        { permissions: [""] },
        { permissions: ["x".repeat(65)] },
        { permissions: Array.from({ length: 51 }, (_, i) => `p${i}`) },
        { credits: { remaining: -1 } },
        { credits: { remaining: 1.5 } },
        { credits: { remaining: 1_000_000_001 } },
        { credits: { remaining: 10, refill: { interval: "weekly", amount: 10 } } },
        { credits: { remaining: 10, refill: { interval: "daily", amount: 0 } } },
        { credits: { remaining: 10, refill: { interval: "daily" } } },
        { credits: 10 },
        { meta: ["not", "an", "object"] },
        { meta: "text" },
        { meta: 42 },
      ];
      for (const body of bad) {
        const created = await request(a.baseUrl, "POST", "/api-keys", {
          token: session.token,
          body: { name: "bad", ...body },
        });
        expect(created.status, `create ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
        expect(created.body).toMatchObject({ code: "BAD_REQUEST" });
        const updated = await patch(apiKey.id, body);
        expect(updated.status, `update ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      }
      for (const body of [
        { permissions: ["Prices"] },
        { permissions: "x" },
        { cost: -1 },
        { cost: 1_001 },
        { cost: 0.5 },
        { cost: "1" },
      ]) {
        const response = await request(a.baseUrl, "POST", "/api-keys/verify", {
          body: { key: "kp_x", ...body },
        });
        expect(response.status, `verify ${JSON.stringify(body)}`).toBe(400);
      }
    });
  });

  describe("verification", () => {
    it("requires every asked permission; a trailing * grants a prefix and * alone grants all", async () => {
      const { key } = await create({ permissions: ["prices:read", "chat:*"] });
      const ask = (permissions: string[]) => verifyOver(a.baseUrl, key, { permissions });
      expect(await ask(["prices:read"])).toMatchObject({ code: "VALID", valid: true });
      expect(await ask(["prices:read", "chat:send", "chat:"])).toMatchObject({ code: "VALID" });
      expect(await ask([])).toMatchObject({ code: "VALID" });
      const refused = await ask(["prices:read", "prices:write"]);
      expect(refused).toMatchObject({
        code: "INSUFFICIENT_PERMISSIONS",
        valid: false,
        permissions: ["prices:read", "chat:*"],
        ratelimit: null,
      });
      expect((await ask(["chat"])).code).toBe("INSUFFICIENT_PERMISSIONS");
      expect((await ask(["prices:*"])).code).toBe("INSUFFICIENT_PERMISSIONS");
      const { key: admin } = await create({ permissions: ["*"] });
      expect((await verifyOver(a.baseUrl, admin, { permissions: ["anything:at.all", "x"] })).code).toBe(
        "VALID",
      );
    });

    it("returns meta and spends credits by cost (default 1), then answers USAGE_EXCEEDED", async () => {
      const { key } = await create({ credits: { remaining: 10 }, meta: { customerId: "cus_9" } });
      expect(await verifyOver(a.baseUrl, key)).toMatchObject({
        code: "VALID",
        credits: { remaining: 9 },
        meta: { customerId: "cus_9" },
      });
      expect(await verifyOver(a.baseUrl, key, { cost: 5 })).toMatchObject({ credits: { remaining: 4 } });
      expect(await verifyOver(a.baseUrl, key, { cost: 0 })).toMatchObject({
        code: "VALID",
        credits: { remaining: 4 },
      });
      // Too few: refused, and nothing is spent.
      expect(await verifyOver(a.baseUrl, key, { cost: 5 })).toMatchObject({
        code: "USAGE_EXCEEDED",
        valid: false,
        credits: { remaining: 4 },
      });
      expect(await verifyOver(a.baseUrl, key, { cost: 4 })).toMatchObject({
        code: "VALID",
        credits: { remaining: 0 },
      });
      expect(await verifyOver(a.baseUrl, key)).toMatchObject({
        code: "USAGE_EXCEEDED",
        credits: { remaining: 0 },
      });
      expect(await verifyOver(a.baseUrl, key, { cost: 0 })).toMatchObject({
        code: "VALID",
        credits: { remaining: 0 },
      });
    });

    it("orders REVOKED > EXPIRED > INSUFFICIENT_PERMISSIONS > USAGE_EXCEEDED > RATE_LIMITED > VALID", async () => {
      const policy = {
        permissions: ["a"],
        credits: { remaining: 1 },
        rateLimit: { limit: 1, windowSeconds: 86_400 },
      };
      // Spend both the window and the credit, so every check down the list would refuse.
      const { key, apiKey } = await create({
        ...policy,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect((await verifyOver(a.baseUrl, key, { permissions: ["a"] })).code).toBe("VALID");
      expect((await verifyOver(a.baseUrl, key, { permissions: ["a"] })).code).toBe("USAGE_EXCEEDED");
      expect((await verifyOver(a.baseUrl, key, { permissions: ["b"] })).code).toBe(
        "INSUFFICIENT_PERMISSIONS",
      );
      // With credits again, the spent window is what refuses.
      expect((await patch(apiKey.id, { credits: { remaining: 5 } })).status).toBe(200);
      expect(await verifyOver(a.baseUrl, key)).toMatchObject({
        code: "RATE_LIMITED",
        credits: { remaining: 5 },
      });
      // A refused request spent no credit.
      expect((await verifyOver(a.baseUrl, key)).credits).toEqual({
        remaining: 5,
        purchased: 0,
        refillAt: null,
      });
      clock.advance(61_000);
      expect((await verifyOver(a.baseUrl, key, { permissions: ["b"] })).code).toBe("EXPIRED");
      const { key: revokedKey, apiKey: revoked } = await create(policy);
      await request(a.baseUrl, "DELETE", `/api-keys/${revoked.id}`, { token: session.token });
      expect((await verifyOver(a.baseUrl, revokedKey, { permissions: ["b"] })).code).toBe("REVOKED");
    });

    it("gives the rate limit its request back when credits refuse", async () => {
      const { key } = await create({
        credits: { remaining: 1 },
        rateLimit: { limit: 10, windowSeconds: 86_400 },
      });
      expect(await verifyOver(a.baseUrl, key)).toMatchObject({ code: "VALID", ratelimit: { remaining: 9 } });
      // A refusal reports the window as it is: the request it did not spend is not shown as spent.
      for (let i = 0; i < 3; i++) {
        expect(await verifyOver(a.baseUrl, key)).toMatchObject({
          code: "USAGE_EXCEEDED",
          ratelimit: { limit: 10, remaining: 9 },
        });
      }
      const answer = await verifyOver(a.baseUrl, key, { cost: 0 });
      expect(answer).toMatchObject({ code: "VALID", ratelimit: { remaining: 8 } });
    });

    // The 1,000 against 100 runs in the slow tier (credits-concurrency.test.ts).
    // Every verification over the credits races the others: 80 in `pnpm test`, 200 in the slow tier.
    const CREDITS = forTier({ fast: 8, slow: 20 });
    const CALLS = CREDITS * 10;
    it(`gives exactly ${CREDITS} VALID for ${CALLS} concurrent verifications of a key with ${CREDITS} credits, over two instances`, async () => {
      const { key } = await create({ credits: { remaining: CREDITS } });
      const answers = await Promise.all(
        Array.from({ length: CALLS }, (_, i) => verifyOver((i % 2 === 0 ? a : b).baseUrl, key)),
      );
      expect(count(answers, "VALID")).toBe(CREDITS);
      expect(count(answers, "USAGE_EXCEEDED")).toBe(CALLS - CREDITS);
      // Each VALID saw a different balance: CREDITS - 1 down to 0.
      const remaining = answers.filter((x) => x.code === "VALID").map((x) => x.credits?.remaining);
      expect(new Set(remaining)).toEqual(new Set(Array.from({ length: CREDITS }, (_, i) => i)));
    });

    it("refills to the amount (not adding) at the start of each UTC day, without any timer", async () => {
      const { key, apiKey } = await create({
        credits: { remaining: 3, refill: { interval: "daily", amount: 5 } },
      });
      for (let i = 0; i < 3; i++) expect((await verifyOver(a.baseUrl, key)).code).toBe("VALID");
      expect((await verifyOver(a.baseUrl, key)).code).toBe("USAGE_EXCEEDED");
      const now = Date.now();
      const nextDay = Math.ceil(now / DAY_MS) * DAY_MS;
      clock.advance(nextDay - now + 1_000);
      // The list shows the refilled balance before any spend.
      const list = await request(a.baseUrl, "GET", `/api-keys/${session.wallet}`, { token: session.token });
      const listed = (list.body as { keys: KeyBody[] }).keys.find((k) => k.id === apiKey.id);
      expect(listed?.credits?.remaining).toBe(5);
      const refilled = await verifyOver(b.baseUrl, key);
      expect(refilled).toMatchObject({ code: "VALID", credits: { remaining: 4 } });
      // The answer names the next refill: the UTC midnight after this one.
      expect(refilled.credits?.refillAt).toBe(new Date(nextDay + DAY_MS).toISOString());
      expect(await verifyOver(a.baseUrl, key, { cost: 4 })).toMatchObject({ credits: { remaining: 0 } });
      expect((await verifyOver(a.baseUrl, key)).code).toBe("USAGE_EXCEEDED");
    });

    it("counts INSUFFICIENT_PERMISSIONS and USAGE_EXCEEDED in usage", async () => {
      const s = await signIn(a.baseUrl);
      const { key, apiKey } = await create({ permissions: ["a"], credits: { remaining: 0 } }, s);
      await verifyOver(a.baseUrl, key, { permissions: ["b"] });
      await verifyOver(a.baseUrl, key, { permissions: ["b"] });
      await verifyOver(a.baseUrl, key);
      await expect
        .poll(async () => {
          await a.app.services.verification.usage.flush();
          const usage = await request(a.baseUrl, "GET", `/api-keys/${s.wallet}/usage?keyId=${apiKey.id}`, {
            token: s.token,
          });
          return (usage.body as { totals: Record<string, number> }).totals;
        })
        .toMatchObject({ requests: 3, insufficientPermissions: 2, usageExceeded: 1, valid: 0 });
    });
  });

  describe("PATCH /api-keys/:id", () => {
    it("changes each field alone, leaves the others, and clears with null", async () => {
      const { apiKey } = await create({
        permissions: ["a"],
        credits: { remaining: 5 },
        meta: { m: 1 },
        rateLimit: { limit: 5, windowSeconds: 60 },
        expiresAt: new Date(Date.now() + DAY_MS).toISOString(),
      });
      const steps: [Record<string, unknown>, Partial<KeyBody>][] = [
        [{ name: "renamed" }, { name: "renamed" }],
        [{ permissions: ["b", "c"] }, { permissions: ["b", "c"] }],
        [{ meta: { other: true } }, { meta: { other: true } }],
        [
          { rateLimit: { limit: 9, windowSeconds: 10 } },
          {
            rateLimit: { limit: 9, windowSeconds: 10 },
            rateLimits: [{ name: "default", limit: 9, windowSeconds: 10, autoApply: true }],
          },
        ],
        [{ rateLimit: null }, { rateLimit: null, rateLimits: [] }],
        [{ expiresAt: null }, { expiresAt: null }],
        [{ meta: null }, { meta: null }],
        [{ permissions: [] }, { permissions: [] }],
      ];
      let current = apiKey as unknown as KeyBody;
      for (const [body, expected] of steps) {
        const response = await patch(apiKey.id, body);
        expect(response.status, JSON.stringify(body)).toBe(200);
        const updated = (response.body as { apiKey: KeyBody }).apiKey;
        expect(updated).toEqual({ ...current, ...expected });
        current = updated;
      }
      const credited = await patch(apiKey.id, {
        credits: { remaining: 7, refill: { interval: "daily", amount: 7 } },
      });
      expect((credited.body as { apiKey: KeyBody }).apiKey.credits).toMatchObject({
        remaining: 7,
        refill: { interval: "daily", amount: 7 },
      });
      const cleared = await patch(apiKey.id, { credits: null });
      expect((cleared.body as { apiKey: KeyBody }).apiKey.credits).toBeNull();
      expect((await patch(apiKey.id, {})).status).toBe(200);
    });

    it("reaches a second instance within 1 s: permissions, credits, meta and rate limit", async () => {
      const { key, apiKey } = await create({ permissions: ["a"] });
      expect((await verifyOver(b.baseUrl, key, { permissions: ["a"] })).code).toBe("VALID");
      await patch(apiKey.id, {
        permissions: ["b"],
        credits: { remaining: 0 },
        meta: { tier: "gold" },
        rateLimit: { limit: 3, windowSeconds: 60 },
      });
      await expect
        .poll(() => verifyOver(b.baseUrl, key, { permissions: ["a"] }), { timeout: 1_000 })
        .toMatchObject({ code: "INSUFFICIENT_PERMISSIONS", meta: { tier: "gold" } });
      expect(await verifyOver(b.baseUrl, key, { permissions: ["b"] })).toMatchObject({
        code: "USAGE_EXCEEDED",
        credits: { remaining: 0 },
      });
    });

    it("records key.updated with what changed, readable by the wallet only", async () => {
      const { apiKey } = await create({});
      await patch(apiKey.id, { name: "new name", permissions: ["x"], credits: null });
      const events = await request(a.baseUrl, "GET", `/api-keys/${session.wallet}/events?limit=5`, {
        token: session.token,
      });
      const [latest] = (events.body as { events: Array<{ action: string; keyId: string; changes: unknown }> })
        .events;
      expect(latest).toMatchObject({
        action: "key.updated",
        keyId: apiKey.id,
        changes: { name: "new name", permissions: ["x"], credits: null },
      });
      const stranger = await signIn(a.baseUrl);
      const other = await request(a.baseUrl, "GET", `/api-keys/${session.wallet}/events`, {
        token: stranger.token,
      });
      expect(other.status).toBe(403);
    });

    it("answers 404 for another wallet's key, 409 for a revoked one, 400 for a past expiry, 401 without a session", async () => {
      const { apiKey } = await create({});
      const stranger = await signIn(a.baseUrl);
      expect((await patch(apiKey.id, { name: "mine" }, stranger)).status).toBe(404);
      expect((await patch(apiKey.id, { expiresAt: "2020-01-01T00:00:00Z" })).status).toBe(400);
      expect(
        (await request(a.baseUrl, "PATCH", `/api-keys/${apiKey.id}`, { body: { name: "x" } })).status,
      ).toBe(401);
      await request(a.baseUrl, "DELETE", `/api-keys/${apiKey.id}`, { token: session.token });
      const revoked = await patch(apiKey.id, { name: "again" });
      expect(revoked).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    });

    it("re-activates an expired key with a new expiry, counted against the cap", async () => {
      const capped = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "1" });
      try {
        const s = await signIn(capped.baseUrl);
        const soon = new Date(Date.now() + 60_000).toISOString();
        const first = await createKeyOver(capped.baseUrl, s.token, { name: "first", expiresAt: soon });
        clock.advance(61_000);
        const second = await createKeyOver(capped.baseUrl, s.token, { name: "second" });
        const later = new Date(Date.now() + DAY_MS).toISOString();
        const at = (id: string, body: unknown) =>
          request(capped.baseUrl, "PATCH", `/api-keys/${id}`, { token: s.token, body });
        expect((await at(first.apiKey.id, { expiresAt: later })).status).toBe(409);
        await request(capped.baseUrl, "DELETE", `/api-keys/${second.apiKey.id}`, { token: s.token });
        const revived = await at(first.apiKey.id, { expiresAt: later });
        expect(revived).toMatchObject({
          status: 200,
          body: { apiKey: { status: "active", expiresAt: later } },
        });
        expect((await verifyOver(capped.baseUrl, first.key)).code).toBe("VALID");
      } finally {
        await capped.close();
      }
    });

    it("works over tRPC with Dates", async () => {
      const { apiKey } = await create({});
      const client = trpcClient(a.baseUrl, session.token);
      const expiresAt = new Date(Date.now() + DAY_MS);
      const { apiKey: updated } = await client.keys.update.mutate({
        id: apiKey.id,
        expiresAt,
        meta: { k: "v" },
      });
      expect(updated.expiresAt).toEqual(expiresAt);
      expect(updated.meta).toEqual({ k: "v" });
    });
  });

  describe("rolls", () => {
    it("carry permissions, meta and one shared credit balance to the new key", async () => {
      const { key: oldKey, apiKey } = await create({
        permissions: ["p"],
        meta: { c: 1 },
        credits: { remaining: 3 },
      });
      const rolled = await request(a.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, {
        token: session.token,
        body: { gracePeriodSeconds: 3_600 },
      });
      const { key: newKey, apiKey: next } = rolled.body as { key: string; apiKey: KeyBody };
      expect(next).toMatchObject({ permissions: ["p"], meta: { c: 1 }, credits: { remaining: 3 } });
      expect(await verifyOver(a.baseUrl, newKey)).toMatchObject({ code: "VALID", credits: { remaining: 2 } });
      expect(await verifyOver(a.baseUrl, oldKey)).toMatchObject({ code: "VALID", credits: { remaining: 1 } });
      expect(await verifyOver(a.baseUrl, newKey)).toMatchObject({ code: "VALID", credits: { remaining: 0 } });
      expect((await verifyOver(a.baseUrl, oldKey)).code).toBe("USAGE_EXCEEDED");
    });
  });
});
