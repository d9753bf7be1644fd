import { request } from "@keyport/test-support/http";
import { type RedisServer, startRedisServer } from "@keyport/test-support/redis-server";
import { signIn } from "@keyport/test-support/siwe";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SPEND_SCRIPT } from "../../src/credits/spend-script.js";
import { keyCredits } from "../../src/db/schema/index.js";
import { describeDatabases } from "../support/databases.js";
import { createKeyOver, type VerificationBody } from "../support/keys.js";
import { type ReplyCutter, startReplyCutter } from "../support/reply-cutter.js";
import { startTestServer, type TestServer } from "../support/server.js";

// A spend Redis ran whose reply never came back (Redis crashed, or the connection broke, after the
// script ran): the credit may be spent, and the client must not be told VALID for a second run of
// it. The verification answers VALID for exactly one spend, or 503 (its answer lost); PostgreSQL,
// once drained, shows no spend beyond those (docs/verifying-keys.md, credits with Redis).

describeDatabases("a spend whose Redis reply is lost", (target) => {
  let redis: RedisServer;
  let cutter: ReplyCutter;
  let server: TestServer;

  beforeAll(async () => {
    redis = await startRedisServer();
    cutter = await startReplyCutter(redis.port);
    server = await startTestServer(target, { REDIS_URL: cutter.url, CREDITS_DRAIN_INTERVAL_MS: "50" });
  });
  afterAll(async () => {
    await server?.close();
    await cutter?.close();
    await redis?.close();
  });

  const verify = async (key: string) => {
    const res = await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key, cost: 1 } });
    return { status: res.status, body: res.body as VerificationBody };
  };

  it("is never run twice: VALID for one spend or 503, and the drained balance counts no more than that", async () => {
    const session = await signIn(server.baseUrl);
    const { key, apiKey } = await createKeyOver(server.baseUrl, session.token, {
      name: "metered",
      credits: { remaining: 10 },
    });
    // Warm: the balance is loaded into Redis and the script is cached there.
    expect(await verify(key)).toMatchObject({
      status: 200,
      body: { code: "VALID", credits: { remaining: 9 } },
    });

    const cut = cutter.cutAfter(SPEND_SCRIPT.sha);
    const lost = await verify(key);
    await cut;
    // The next verification once the store has reconnected (until then it answers 503, spending nothing).
    let after = await verify(key);
    while (after.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await verify(key);
    }
    expect(after).toMatchObject({ status: 200, body: { code: "VALID" } });
    const afterRemaining = after.body.credits?.remaining;

    if (lost.status === 200) {
      // Answered VALID: exactly one spend behind it, so the next one leaves 7.
      expect(lost.body).toMatchObject({ code: "VALID", credits: { remaining: 8 } });
      expect(afterRemaining).toBe(7);
    } else {
      // Its answer lost (503): spent once or not at all, never twice.
      expect(lost.status).toBe(503);
      expect([7, 8]).toContain(afterRemaining);
    }
    // The database, once drained, agrees with what the answers said.
    await expect
      .poll(
        async () =>
          (await target.database.db.select().from(keyCredits).where(eq(keyCredits.id, apiKey.id)))[0]
            ?.remaining,
        { timeout: 10_000, interval: 50 },
      )
      .toBe(afterRemaining);
  });
});
