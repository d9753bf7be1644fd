import { createMemoryRateLimiter } from "@keyport/node-edge";
import { describe, expect, it } from "vitest";
import { createNonceLimiter, nonceBudgetKey, parseNonceRateLimit } from "./nonce-limit.js";

describe("NONCE_RATE_LIMIT", () => {
  it("reads <count>/<seconds> and off", () => {
    expect(parseNonceRateLimit("10/60")).toEqual({ limit: 10, windowSeconds: 60 });
    expect(parseNonceRateLimit("1/86400")).toEqual({ limit: 1, windowSeconds: 86_400 });
    expect(parseNonceRateLimit("off")).toBeNull();
  });

  it.each(["", "10", "0/60", "10/0", "10/86401", "-1/60", "10/60s", "1.5/60", " 10/60", "10 / 60"])(
    "refuses %j",
    (value) => {
      expect(parseNonceRateLimit(value)).toBeUndefined();
    },
  );
});

describe("nonce budgets", () => {
  it("counts IPv4 addresses one by one", () => {
    expect(nonceBudgetKey("203.0.113.7")).toBe("nonce:203.0.113.7");
    expect(nonceBudgetKey("203.0.113.8")).not.toBe(nonceBudgetKey("203.0.113.7"));
  });

  it("counts IPv6 clients by their /64, however the address is written", () => {
    const key = "nonce:2001:db8:0:1::/64";
    expect(nonceBudgetKey("2001:db8:0:1::1")).toBe(key);
    expect(nonceBudgetKey("2001:0DB8:0000:0001:ffff:ffff:ffff:ffff")).toBe(key);
    expect(nonceBudgetKey("2001:db8::1:0:0:0:5")).toBe(key);
    expect(nonceBudgetKey("2001:db8:0:1:a::192.0.2.1")).toBe(key);
    expect(nonceBudgetKey("2001:db8:0:2::1")).not.toBe(key);
    expect(nonceBudgetKey("::1")).toBe("nonce:0:0:0:0::/64");
    expect(nonceBudgetKey("fe80::1%eth0")).toBe("nonce:fe80:0:0:0::/64");
  });

  it("puts requests of unknown origin in one shared budget", () => {
    expect(nonceBudgetKey(undefined)).toBe("nonce:unknown");
    expect(nonceBudgetKey("not-an-ip")).toBe("nonce:unknown");
  });
});

describe("nonce limiter", () => {
  const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

  it("allows `limit` nonces per window per client, then reports the window's end", async () => {
    const limiter = createNonceLimiter(createMemoryRateLimiter(), { limit: 2, windowSeconds: 60 });
    expect(await limiter.take("198.51.100.1", T0)).toEqual({ allowed: true });
    expect(await limiter.take("198.51.100.1", T0 + 1)).toEqual({ allowed: true });
    expect(await limiter.take("198.51.100.1", T0 + 2)).toEqual({
      allowed: false,
      resetAt: new Date(T0 + 60_000),
    });
    expect(await limiter.take("198.51.100.2", T0 + 3)).toEqual({ allowed: true });
    expect(await limiter.take("198.51.100.1", T0 + 60_000)).toEqual({ allowed: true });
  });

  it("allows everything when off", async () => {
    const limiter = createNonceLimiter(createMemoryRateLimiter(), null);
    for (let i = 0; i < 100; i++) expect(await limiter.take("198.51.100.1", T0)).toEqual({ allowed: true });
  });
});
