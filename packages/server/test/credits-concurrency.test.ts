import { clearOfWindowEdge } from "@keyport/test-support/clock";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, type VerificationBody, verifyOver } from "./support/keys.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

const count = (answers: VerificationBody[], code: string) => answers.filter((a) => a.code === code).length;

/** The exactness promise of docs/verifying-keys.md: 1,000 concurrent verifications of a key with 100 credits give exactly 100 VALID. */
function exactCredits(apps: () => { a: TestServer; b: TestServer }, sharedWindows: boolean) {
  it("gives exactly 100 VALID for 1,000 concurrent verifications of a key with 100 credits, split over two instances", async () => {
    const { a, b } = apps();
    await clearOfWindowEdge(86_400);
    const session = await signIn(a.baseUrl);
    const { key } = await createKeyOver(a.baseUrl, session.token, {
      name: "metered",
      credits: { remaining: 100 },
      // A roomy window as well, so the rate limit's give-back runs for every refusal too.
      rateLimit: { limit: 1_000_000, windowSeconds: 86_400 },
    });
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => verifyOver((i % 2 === 0 ? a : b).baseUrl, key)),
    );
    expect(count(answers, "VALID")).toBe(100);
    expect(count(answers, "USAGE_EXCEEDED")).toBe(900);
    const remaining = answers.filter((x) => x.code === "VALID").map((x) => x.credits?.remaining);
    expect(new Set(remaining)).toEqual(new Set(Array.from({ length: 100 }, (_, i) => i)));
    // Refusals gave their requests back: only the VALID ones count in the window (shared through
    // Redis, else a's own, which saw the even-numbered requests).
    const counted = sharedWindows
      ? 100
      : count(
          answers.filter((_, i) => i % 2 === 0),
          "VALID",
        );
    const after = await verifyOver(a.baseUrl, key, { cost: 0 });
    expect(after.ratelimit?.remaining).toBe(1_000_000 - counted - 1);
  });
}

describeDatabases("credits under concurrency", (target) => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(target), startTestServer(target)]);
  });
  afterAll(() => Promise.all([a?.close(), b?.close()]));

  describe("two instances on one database", () => {
    exactCredits(() => ({ a, b }), false);
  });

  describe.runIf(TEST_REDIS_URL)("two instances with REDIS_URL", () => {
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
    exactCredits(() => ({ a: ra, b: rb }), true);
  });
});
