import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { type App, createApp } from "../../src/app.js";
import { parseEnv } from "../../src/env.js";
import type { DatabaseTarget } from "./databases.js";
import { TEST_WEBHOOKS_KEY } from "./webhooks-key.js";

/** A running app on a loopback port. */
export interface TestServer {
  app: App;
  /** e.g. `http://127.0.0.1:54321` */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the real app on 127.0.0.1:0 over the target's shared database (logs silenced).
 * `env` overrides settings, e.g. `{ MAX_ACTIVE_KEYS_PER_WALLET: "3" }`. The nonce rate limit is off
 * unless `env` sets NONCE_RATE_LIMIT.
 */
export async function startTestServer(
  target: Pick<DatabaseTarget, "database" | "url">,
  env: Record<string, string> = {},
): Promise<TestServer> {
  // Tests sign in from 127.0.0.1 dozens of times a minute; NONCE_RATE_LIMIT has tests of its own.
  const defaults = {
    DATABASE_URL: target.url,
    WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
    LOG_LEVEL: "silent",
    NONCE_RATE_LIMIT: "off",
    ...redisByDefault(target.database),
  };
  const app = await createApp(parseEnv({ ...defaults, ...env }), { database: target.database });
  const port = await app.listen(0, "127.0.0.1");
  return { app, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}

const redisEnvs = new WeakMap<object, Record<string, string>>();

/**
 * TEST_SERVER_REDIS=on runs every test server on TEST_REDIS_URL, so the suites check the Redis
 * credits path too (docs/verifying-keys.md). Servers on one database share one namespace, as the
 * instances of one deployment must (their balances and journal are one).
 */
function redisByDefault(database: object): Record<string, string> {
  const url = process.env.TEST_REDIS_URL;
  if (process.env.TEST_SERVER_REDIS !== "on" || !url) return {};
  const env = redisEnvs.get(database) ?? sharedRedisEnv(url);
  redisEnvs.set(database, env);
  return env;
}

/**
 * Settings that put apps on one Redis under a namespace of their own (rate-limit windows and
 * invalidations shared by those apps and no others).
 * @example const env = sharedRedisEnv(TEST_REDIS_URL); await Promise.all([startTestServer(t, env), startTestServer(t, env)]);
 */
export function sharedRedisEnv(redisUrl: string): Record<string, string> {
  return { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `keyport:test:${randomBytes(6).toString("hex")}:` };
}

/**
 * Deletes every Redis key under `env`'s REDIS_KEY_PREFIX (what `sharedRedisEnv` made): the credits'
 * journal streams and `trimmed` marks have no TTL.
 * @example afterAll(() => removeRedisKeys(env));
 */
export async function removeRedisKeys(env: Record<string, string>): Promise<void> {
  const url = env.REDIS_URL;
  const prefix = env.REDIS_KEY_PREFIX;
  if (!url || !prefix) return;
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
