import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit.js";

describe("createRateLimiter", () => {
  it("allows `limit` requests per window, then refuses with the seconds left", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now: () => now });
    expect(limiter.hit("a")).toEqual({ allowed: true });
    expect(limiter.hit("a")).toEqual({ allowed: true });
    now += 15_000;
    expect(limiter.hit("a")).toEqual({ allowed: false, retryAfterSeconds: 45 });
  });

  it("counts each client separately", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now: () => 0 });
    expect(limiter.hit("a").allowed).toBe(true);
    expect(limiter.hit("b").allowed).toBe(true);
    expect(limiter.hit("a").allowed).toBe(false);
  });

  it("opens a fresh window once the old one has ended", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now: () => now });
    expect(limiter.hit("a").allowed).toBe(true);
    now = 59_999;
    expect(limiter.hit("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 60_000;
    expect(limiter.hit("a").allowed).toBe(true);
  });
});
