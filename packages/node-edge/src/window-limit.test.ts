import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "./memory-rate-limiter.js";
import { createWindowLimit } from "./window-limit.js";

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // a multiple of every window used below

describe("createWindowLimit", () => {
  it("allows `limit` requests per window, then refuses with the seconds until the window ends", () => {
    let now = T0 + 10_000;
    const limit = createWindowLimit(createMemoryRateLimiter(), {
      name: "ip",
      limit: 2,
      windowSeconds: 60,
      now: () => now,
    });
    expect(limit.hit("a")).toEqual({ allowed: true });
    expect(limit.hit("a")).toEqual({ allowed: true });
    now += 5_000;
    expect(limit.hit("a")).toEqual({ allowed: false, retryAfterSeconds: 45 });
    now = T0 + 59_999;
    expect(limit.hit("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("counts each client separately", () => {
    const limit = createWindowLimit(createMemoryRateLimiter(), {
      name: "ip",
      limit: 1,
      windowSeconds: 60,
      now: () => T0,
    });
    expect(limit.hit("a").allowed).toBe(true);
    expect(limit.hit("b").allowed).toBe(true);
    expect(limit.hit("a").allowed).toBe(false);
  });

  it("opens a fresh window at the clock's boundary, as every instance sees it", () => {
    let now = T0 + 30_000;
    const limit = createWindowLimit(createMemoryRateLimiter(), {
      name: "ip",
      limit: 1,
      windowSeconds: 60,
      now: () => now,
    });
    expect(limit.hit("a").allowed).toBe(true);
    now = T0 + 59_999;
    expect(limit.hit("a").allowed).toBe(false);
    now = T0 + 60_000;
    expect(limit.hit("a").allowed).toBe(true);
  });

  it("keeps two rules on one store apart", () => {
    const store = createMemoryRateLimiter();
    const byIp = createWindowLimit(store, { name: "ip", limit: 1, windowSeconds: 60, now: () => T0 });
    const byWallet = createWindowLimit(store, { name: "wallet", limit: 1, windowSeconds: 60, now: () => T0 });
    expect(byIp.hit("a").allowed).toBe(true);
    expect(byWallet.hit("a").allowed).toBe(true);
    expect(byIp.hit("a").allowed).toBe(false);
  });

  it("counts a rule without a name under the client as given, in a store of its own", () => {
    const store = createMemoryRateLimiter();
    const limit = createWindowLimit(store, { limit: 2, windowSeconds: 60, now: () => T0 });
    expect(limit.hit("203.0.113.7")).toEqual({ allowed: true });
    expect(store.consume("203.0.113.7", 2, 60, T0)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limit.hit("203.0.113.7")).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });
});
