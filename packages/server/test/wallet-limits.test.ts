import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, type VerificationBody, verifyOver } from "./support/keys.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";
import { forTier } from "./support/tier.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

// A day-long window: no test here runs long enough to see one end.
const DAY = 86_400;

type Session = { token: string; wallet: string };

const limitsPath = (wallet: string) => `/api-keys/${wallet}/limits`;

async function putLimit(baseUrl: string, session: Session, rateLimit: unknown) {
  const response = await request(baseUrl, "PUT", limitsPath(session.wallet), {
    token: session.token,
    body: { rateLimit },
  });
  if (response.status !== 200) throw new Error(`PUT limits failed with ${response.status}`);
  return response.body;
}

/** Creates `count` keys of the session's wallet, with an optional per-key rate limit each. */
async function keysOf(baseUrl: string, session: Session, count: number, rateLimit?: unknown) {
  const created = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      createKeyOver(baseUrl, session.token, { name: `key ${i}`, ...(rateLimit ? { rateLimit } : {}) }),
    ),
  );
  return created.map((c) => c.key);
}

/** The limits answer for a wallet whose only limit is `limit` (the one named default), or none. */
const limitsOf = (limit: { limit: number; windowSeconds: number } | null) => ({
  rateLimit: limit,
  rateLimits: limit === null ? [] : [{ name: "default", ...limit, autoApply: true }],
});

const codes = (answers: VerificationBody[]) => answers.map((a) => a.code);
const count = (answers: VerificationBody[], code: string) => answers.filter((a) => a.code === code).length;

/**
 * The behaviour every setup must show. `a` and `b` answer the exactness test's verifications
 * between them: two apps sharing Redis, or one app twice (without Redis a window is per process).
 */
function verificationBehaviour(apps: () => { a: TestServer; b: TestServer }) {
  // Every verification races the others for the wallet's window: 90 in `pnpm test`, 300 in the slow tier.
  const LIMIT = forTier({ fast: 30, slow: 100 });
  const CALLS = LIMIT * 3;
  it(`lets exactly ${LIMIT} of ${CALLS} concurrent verifications over 3 keys through a wallet limit of ${LIMIT}`, async () => {
    const { a, b } = apps();
    const session = await signIn(a.baseUrl);
    const keys = await keysOf(a.baseUrl, session, 3);
    await putLimit(a.baseUrl, session, { limit: LIMIT, windowSeconds: DAY });
    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => verifyOver((i % 2 === 0 ? a : b).baseUrl, keys[i % 3] ?? "")),
    );
    expect(count(answers, "VALID")).toBe(LIMIT);
    expect(count(answers, "RATE_LIMITED")).toBe(CALLS - LIMIT);
    // Every refusal names the wallet's window, spent.
    for (const answer of answers.filter((x) => x.code === "RATE_LIMITED")) {
      expect(answer.ratelimit).toMatchObject({ limit: LIMIT, remaining: 0 });
    }
  });

  it("reports the key's window when it binds, and the wallet's when that binds", async () => {
    const { a } = apps();
    const session = await signIn(a.baseUrl);
    const [tight] = await keysOf(a.baseUrl, session, 1, { limit: 5, windowSeconds: DAY });
    const [loose] = await keysOf(a.baseUrl, session, 1, { limit: 1_000, windowSeconds: DAY });
    await putLimit(a.baseUrl, session, { limit: 50, windowSeconds: DAY });
    expect((await verifyOver(a.baseUrl, tight ?? "")).ratelimit).toMatchObject({ limit: 5, remaining: 4 });
    // The wallet's window has 48 left after this one, the loose key's 999: the wallet's binds.
    expect((await verifyOver(a.baseUrl, loose ?? "")).ratelimit).toMatchObject({ limit: 50, remaining: 48 });
  });

  it("leaves the wallet's window alone when the key's refuses", async () => {
    const { a } = apps();
    const session = await signIn(a.baseUrl);
    const [limited] = await keysOf(a.baseUrl, session, 1, { limit: 1, windowSeconds: DAY });
    const [plain] = await keysOf(a.baseUrl, session, 1);
    await putLimit(a.baseUrl, session, { limit: 3, windowSeconds: DAY });
    expect((await verifyOver(a.baseUrl, limited ?? "")).code).toBe("VALID");
    const refused = await verifyOver(a.baseUrl, limited ?? "");
    expect(refused).toMatchObject({ code: "RATE_LIMITED", ratelimit: { limit: 1, remaining: 0 } });
    // Only the first verification took from the wallet's 3: the refused one did not.
    expect((await verifyOver(a.baseUrl, plain ?? "")).ratelimit).toMatchObject({ limit: 3, remaining: 1 });
  });

  it("gives the key's window its request back when the wallet's refuses", async () => {
    const { a } = apps();
    const session = await signIn(a.baseUrl);
    const [limited] = await keysOf(a.baseUrl, session, 1, { limit: 5, windowSeconds: DAY });
    const [plain] = await keysOf(a.baseUrl, session, 1);
    await putLimit(a.baseUrl, session, { limit: 1, windowSeconds: DAY });
    expect((await verifyOver(a.baseUrl, plain ?? "")).code).toBe("VALID");
    const refusals = await Promise.all(Array.from({ length: 3 }, () => verifyOver(a.baseUrl, limited ?? "")));
    expect(codes(refusals)).toEqual(["RATE_LIMITED", "RATE_LIMITED", "RATE_LIMITED"]);
    for (const refusal of refusals) expect(refusal.ratelimit).toMatchObject({ limit: 1, remaining: 0 });
    // Without the wallet's limit, the key's own window is untouched by the three refusals.
    await putLimit(a.baseUrl, session, null);
    expect((await verifyOver(a.baseUrl, limited ?? "")).ratelimit).toMatchObject({ limit: 5, remaining: 4 });
  });
}

describeDatabases("wallet-wide limit", (target) => {
  let a: TestServer;
  let b: TestServer;
  let owner: Session;
  let stranger: Session;

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(target), startTestServer(target)]);
    [owner, stranger] = await Promise.all([signIn(a.baseUrl), signIn(a.baseUrl)]);
  });
  afterAll(() => Promise.all([a?.close(), b?.close()]));

  describe("GET and PUT /api-keys/:wallet/limits", () => {
    it("starts with none, sets, reads back and removes with null", async () => {
      const session = await signIn(a.baseUrl);
      const get = () => request(a.baseUrl, "GET", limitsPath(session.wallet), { token: session.token });
      expect(await get()).toMatchObject({ status: 200, body: { rateLimit: null } });
      const limit = { limit: 100, windowSeconds: 60 };
      expect(await putLimit(a.baseUrl, session, limit)).toEqual(limitsOf(limit));
      expect((await get()).body).toEqual(limitsOf(limit));
      const changed = { limit: 7, windowSeconds: 3_600 };
      expect(await putLimit(a.baseUrl, session, changed)).toEqual(limitsOf(changed));
      expect((await get()).body).toEqual(limitsOf(changed));
      expect(await putLimit(a.baseUrl, session, null)).toEqual(limitsOf(null));
      expect((await get()).body).toEqual(limitsOf(null));
    });

    it("round-trips over tRPC, with the wallet in any case", async () => {
      const session = await signIn(a.baseUrl);
      const client = trpcClient(a.baseUrl, session.token);
      const lower = session.wallet.toLowerCase();
      const limit = { limit: 3, windowSeconds: 10 };
      expect(await client.limits.set.mutate({ wallet: lower, rateLimit: limit })).toEqual(limitsOf(limit));
      expect(await client.limits.get.query({ wallet: lower })).toEqual(limitsOf(limit));
    });

    it("answers 401 without a session", async () => {
      for (const method of ["GET", "PUT"]) {
        const response = await request(a.baseUrl, method, limitsPath(owner.wallet), {
          body: method === "PUT" ? { rateLimit: null } : undefined,
        });
        expect(response.status).toBe(401);
        expect(response.body).toMatchObject({ code: "UNAUTHORIZED" });
      }
    });

    it("answers 403 for another wallet, and leaves that wallet's limit unchanged", async () => {
      await putLimit(a.baseUrl, owner, { limit: 10, windowSeconds: 60 });
      const read = await request(a.baseUrl, "GET", limitsPath(owner.wallet), { token: stranger.token });
      expect(read).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      const write = await request(a.baseUrl, "PUT", limitsPath(owner.wallet), {
        token: stranger.token,
        body: { rateLimit: null },
      });
      expect(write).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      const own = await request(a.baseUrl, "GET", limitsPath(owner.wallet), { token: owner.token });
      expect(own.body).toEqual(limitsOf({ limit: 10, windowSeconds: 60 }));
    });

    it("answers 400 for input outside a key's rate-limit bounds", async () => {
      const bad: unknown[] = [
        {},
        { rateLimit: { limit: 0, windowSeconds: 60 } },
        { rateLimit: { limit: 1_000_001, windowSeconds: 60 } },
        { rateLimit: { limit: 1.5, windowSeconds: 60 } },
        { rateLimit: { limit: 10, windowSeconds: 0 } },
        { rateLimit: { limit: 10, windowSeconds: 86_401 } },
        { rateLimit: { limit: 10 } },
        { rateLimit: "10/min" },
      ];
      for (const body of bad) {
        const response = await request(a.baseUrl, "PUT", limitsPath(owner.wallet), {
          token: owner.token,
          body,
        });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body).toMatchObject({ code: "BAD_REQUEST" });
      }
      const notAWallet = await request(a.baseUrl, "GET", "/api-keys/0x1234/limits", { token: owner.token });
      expect(notAWallet.status).toBe(400);
    });
  });

  describe("verification", () => {
    verificationBehaviour(() => ({ a, b: a }));

    it("costs a wallet without a limit nothing: no ratelimit in the answer", async () => {
      const session = await signIn(a.baseUrl);
      const [key] = await keysOf(a.baseUrl, session, 1);
      expect(await verifyOver(a.baseUrl, key ?? "")).toMatchObject({ code: "VALID", ratelimit: null });
    });

    it("applies a PUT from the next verification here and within 1 s on another instance", async () => {
      const session = await signIn(a.baseUrl);
      const [key] = await keysOf(a.baseUrl, session, 1);
      // Both instances have the key cached without a wallet limit.
      expect((await verifyOver(a.baseUrl, key ?? "")).ratelimit).toBeNull();
      expect((await verifyOver(b.baseUrl, key ?? "")).ratelimit).toBeNull();
      await putLimit(a.baseUrl, session, { limit: 1_000, windowSeconds: DAY });
      expect((await verifyOver(a.baseUrl, key ?? "")).ratelimit).toMatchObject({ limit: 1_000 });
      await expect
        .poll(async () => (await verifyOver(b.baseUrl, key ?? "")).ratelimit?.limit, { timeout: 1_000 })
        .toBe(1_000);
      await putLimit(a.baseUrl, session, null);
      await expect
        .poll(async () => (await verifyOver(b.baseUrl, key ?? "")).ratelimit, { timeout: 1_000 })
        .toBeNull();
    });
  });

  describe.runIf(TEST_REDIS_URL)("with REDIS_URL, across two apps", () => {
    let ra: TestServer;
    let rb: TestServer;
    const env = sharedRedisEnv(TEST_REDIS_URL ?? "");
    beforeAll(async () => {
      [ra, rb] = await Promise.all([startTestServer(target, env), startTestServer(target, env)]);
    });
    afterAll(async () => {
      await Promise.all([ra?.close(), rb?.close()]);
      await removeRedisKeys(env);
    });

    verificationBehaviour(() => ({ a: ra, b: rb }));
  });
});
