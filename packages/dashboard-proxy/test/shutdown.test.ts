import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { closeApp, createApp, parseEnv } from "../src/index.js";
import { openTestRedis, TEST_REDIS_URL, type TestRedis } from "./support/redis.js";

/** The names of the connections Redis has open now. */
async function connectionNames(admin: Redis): Promise<string[]> {
  const list = String(await admin.client("LIST"));
  return [...list.matchAll(/\bname=(\S*)/g)].map((match) => match[1] ?? "");
}

describe.runIf(TEST_REDIS_URL)("shutdown", () => {
  let redis: TestRedis;
  let admin: Redis;
  afterEach(async () => {
    admin.disconnect();
    await redis.cleanup();
  });

  it("quits the Redis client the app opened for REDIS_URL, and leaves a caller's client open", async () => {
    redis = openTestRedis(TEST_REDIS_URL ?? "");
    admin = new Redis(TEST_REDIS_URL ?? "");
    const name = `${redis.prefix}dashboard-proxy`;
    const env = parseEnv({
      COINGECKO_STARTUP_CHECK: "off",
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: redis.prefix,
    });
    const app = createApp(env, { logDestination: { write: () => {} } });
    // A request through the shared per-IP limit: the client is connected and has been used.
    expect((await app.request("/api/meta")).status).toBe(200);
    await expect.poll(() => connectionNames(admin)).toContain(name);

    await closeApp(app);
    await expect.poll(() => connectionNames(admin)).not.toContain(name);

    const callers = redis.client();
    const withCallers = createApp(env, { redis: callers, logDestination: { write: () => {} } });
    await closeApp(withCallers);
    expect(await callers.ping()).toBe("PONG");
  });
});
