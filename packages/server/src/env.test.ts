import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.js";

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: "./.data",
      KEY_PREFIX: "kp",
      SIWE_DOMAINS: ["localhost", "localhost:3001"],
      SIWE_CHAIN_IDS: [1],
      SESSION_TTL_SECONDS: 86_400,
      MAX_ACTIVE_KEYS_PER_WALLET: 50,
      LOG_LEVEL: "info",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.RPC_URL).toBeUndefined();
  });

  it("parses comma lists and numbers", () => {
    const env = parseEnv({
      PORT: "8080",
      SIWE_DOMAINS: "localhost:3000, example.com",
      SIWE_CHAIN_IDS: "1,8453",
      DATABASE_URL: "memory:",
    });
    expect(env.PORT).toBe(8080);
    expect(env.SIWE_DOMAINS).toEqual(["localhost:3000", "example.com"]);
    expect(env.SIWE_CHAIN_IDS).toEqual([1, 8453]);
    expect(env.DATABASE_URL).toBe("memory:");
  });

  it("trusts X-Forwarded-For from a proxy on the same host by default, from the listed ones when set", () => {
    expect(parseEnv({}).TRUSTED_PROXIES).toEqual(["127.0.0.1", "::1"]);
    expect(parseEnv({ TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.1" }).TRUSTED_PROXIES).toEqual([
      "10.0.0.0/8",
      "192.0.2.1",
    ]);
    expect(parseEnv({ TRUSTED_PROXIES: "" }).TRUSTED_PROXIES).toEqual([]);
    expect(() => parseEnv({ TRUSTED_PROXIES: "proxy.internal" })).toThrow(
      /TRUSTED_PROXIES.*IP addresses or CIDR blocks/,
    );
  });

  it("accepts postgres URLs and treats an empty DATABASE_URL as unset", () => {
    const key = Buffer.alloc(32, 3).toString("base64");
    expect(parseEnv({ DATABASE_URL: "postgresql://u@h/db", WEBHOOKS_ENCRYPTION_KEY: key }).DATABASE_URL).toBe(
      "postgresql://u@h/db",
    );
    expect(parseEnv({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("requires a 32-byte WEBHOOKS_ENCRYPTION_KEY on PostgreSQL, and none on the embedded database", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://u@h/db" })).toThrow(
      /WEBHOOKS_ENCRYPTION_KEY: is required with a PostgreSQL DATABASE_URL/,
    );
    expect(() =>
      parseEnv({
        DATABASE_URL: "postgres://u@h/db",
        WEBHOOKS_ENCRYPTION_KEY: Buffer.alloc(16).toString("base64"),
      }),
    ).toThrow(/WEBHOOKS_ENCRYPTION_KEY: must be 32 bytes/);
    expect(parseEnv({}).WEBHOOKS_ENCRYPTION_KEY).toBeUndefined();
    expect(parseEnv({ DATABASE_URL: "memory:" }).WEBHOOKS_ALLOW_PRIVATE).toBe(false);
  });

  it("listens on every interface unless HOST names one", () => {
    expect(parseEnv({}).HOST).toBeUndefined();
    expect(parseEnv({ HOST: "" }).HOST).toBeUndefined();
    expect(parseEnv({ HOST: "127.0.0.1" }).HOST).toBe("127.0.0.1");
  });

  it("takes PUBLIC_URL as https://, or http:// to a loopback host, and refuses anything else with a clear line", () => {
    expect(parseEnv({}).PUBLIC_URL).toBeUndefined();
    expect(parseEnv({ PUBLIC_URL: "https://keyport.example.com/" }).PUBLIC_URL).toBe(
      "https://keyport.example.com",
    );
    expect(parseEnv({ PUBLIC_URL: "https://example.com/keyport/" }).PUBLIC_URL).toBe(
      "https://example.com/keyport",
    );
    expect(parseEnv({ PUBLIC_URL: "http://localhost:3000" }).PUBLIC_URL).toBe("http://localhost:3000");
    expect(parseEnv({ PUBLIC_URL: "http://127.0.0.1:8080" }).PUBLIC_URL).toBe("http://127.0.0.1:8080");
    expect(parseEnv({ PUBLIC_URL: "http://[::1]:8080" }).PUBLIC_URL).toBe("http://[::1]:8080");
    expect(() => parseEnv({ PUBLIC_URL: "http://keyport.example.com" })).toThrow(
      /PUBLIC_URL: must use https:\/\/ \(http:\/\/ only for localhost/,
    );
    expect(() => parseEnv({ PUBLIC_URL: "keyport.example.com" })).toThrow(
      /PUBLIC_URL: must be an absolute URL/,
    );
    expect(() => parseEnv({ PUBLIC_URL: "ftp://example.com" })).toThrow(
      /PUBLIC_URL: must be an https:\/\/ URL/,
    );
    expect(() => parseEnv({ PUBLIC_URL: "https://user:pw@example.com" })).toThrow(
      /PUBLIC_URL: must not carry a user/,
    );
    expect(() => parseEnv({ PUBLIC_URL: "https://example.com/?a=1" })).toThrow(
      /PUBLIC_URL: must not carry a query/,
    );
  });

  it("names every invalid setting in one error", () => {
    const parse = () =>
      parseEnv({ PORT: "eighty", KEY_PREFIX: "Not_Valid", DATABASE_URL: "mysql://x", SIWE_CHAIN_IDS: "abc" });
    expect(parse).toThrow(EnvError);
    expect(parse).toThrow(/PORT/);
    expect(parse).toThrow(/KEY_PREFIX: must be 1-12 characters/);
    expect(parse).toThrow(/DATABASE_URL/);
    expect(parse).toThrow(/SIWE_CHAIN_IDS/);
  });

  it("reads the verification settings, with their defaults", () => {
    expect(parseEnv({})).toMatchObject({
      REDIS_KEY_PREFIX: "keyport:rl:",
      USAGE_FLUSH_INTERVAL_MS: 1_000,
      USAGE_RECORDING: "on",
      KEY_CACHE_MAX: 100_000,
      KEY_CACHE_TTL_MS: 60_000,
    });
    expect(parseEnv({}).REDIS_URL).toBeUndefined();
    expect(parseEnv({ REDIS_URL: "" }).REDIS_URL).toBeUndefined();
    const env = parseEnv({
      REDIS_URL: "redis://127.0.0.1:6379",
      USAGE_RECORDING: "off",
      KEY_CACHE_TTL_MS: "5",
    });
    expect([env.REDIS_URL, env.USAGE_RECORDING, env.KEY_CACHE_TTL_MS]).toEqual([
      "redis://127.0.0.1:6379",
      "off",
      5,
    ]);
    expect(() => parseEnv({ REDIS_URL: "http://x", USAGE_RECORDING: "false", KEY_CACHE_MAX: "0" })).toThrow(
      /REDIS_URL[\s\S]*USAGE_RECORDING[\s\S]*KEY_CACHE_MAX/,
    );
  });

  it("takes METRICS_TOKEN of 16 characters or more, treats an empty one as unset, and never echoes a short one", () => {
    expect(parseEnv({ METRICS_TOKEN: "0123456789abcdef" }).METRICS_TOKEN).toBe("0123456789abcdef");
    expect(parseEnv({ METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    expect(() => parseEnv({ METRICS_TOKEN: "short-secret" })).toThrow(EnvError);
    expect(() => parseEnv({ METRICS_TOKEN: "short-secret" })).not.toThrow(/short-secret/);
  });
});
