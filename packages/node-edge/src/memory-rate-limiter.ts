import type { RateLimiter, RateLimitResult } from "./rate-limiter.js";
import { windowStart } from "./window.js";

/** Options of {@link createMemoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /**
   * Most keys tracked at once. Past it, finished windows are swept first; only if live windows
   * still exceed the bound are the oldest dropped (which forgets their counts: raise the bound
   * rather than rely on that). Default 100,000.
   */
  maxKeys?: number;
}

/** The in-process limiter: always synchronous. */
export interface MemoryRateLimiter extends RateLimiter {
  consume(key: string, limit: number, windowSeconds: number, nowMs: number): RateLimitResult;
  refund(key: string, windowSeconds: number, nowMs: number): void;
  peek(key: string, limit: number, windowSeconds: number, nowMs: number): RateLimitResult;
  /**
   * `consume` without a result object: 0 when the request is allowed (and counted), else the end of
   * the window that refused it, in epoch ms. For per-request paths that only need the verdict.
   */
  hit(key: string, limit: number, windowSeconds: number, nowMs: number): number;
  /** Keys currently tracked. */
  readonly size: number;
}

interface Window {
  windowSeconds: number;
  start: number;
  end: number;
  count: number;
}

/**
 * An exact rate limiter for one process: a synchronous Map from key to its current window.
 * A key holds one entry, replaced when its window rolls over, so memory is bounded by the
 * number of recently used keys (at most `maxKeys`), not by traffic.
 * @example createMemoryRateLimiter().consume("ip:203.0.113.7", 600, 60, Date.now()).allowed
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const maxKeys = options.maxKeys ?? 100_000;
  const windows = new Map<string, Window>();

  // Amortised O(1): a sweep runs only when the map is full and leaves it at most 90% full.
  function makeRoom(nowMs: number): void {
    for (const [key, w] of windows) {
      if (w.end <= nowMs) windows.delete(key);
    }
    const target = Math.floor(maxKeys * 0.9);
    // Map iteration follows insertion order, and a window is re-inserted when it rolls over,
    // so the first entries are the ones whose windows started longest ago.
    for (const key of windows.keys()) {
      if (windows.size <= target) break;
      windows.delete(key);
    }
  }

  /** The key's window that contains `nowMs`, started (count 0) when its last one has ended. */
  function current(key: string, windowSeconds: number, nowMs: number): Window {
    let w = windows.get(key);
    if (w === undefined || w.end <= nowMs || w.windowSeconds !== windowSeconds) {
      const start = windowStart(nowMs, windowSeconds);
      if (w === undefined) {
        if (windows.size >= maxKeys) makeRoom(nowMs);
        w = { windowSeconds, start, end: start + windowSeconds * 1000, count: 0 };
      } else {
        windows.delete(key);
        w.windowSeconds = windowSeconds;
        w.start = start;
        w.end = start + windowSeconds * 1000;
        w.count = 0;
      }
      windows.set(key, w);
    }
    return w;
  }

  return {
    get size() {
      return windows.size;
    },
    consume(key, limit, windowSeconds, nowMs) {
      const w = current(key, windowSeconds, nowMs);
      const allowed = w.count < limit;
      if (allowed) w.count++;
      return { allowed, limit, remaining: Math.max(0, limit - w.count), resetAt: new Date(w.end) };
    },
    hit(key, limit, windowSeconds, nowMs) {
      const w = current(key, windowSeconds, nowMs);
      if (w.count >= limit) return w.end;
      w.count++;
      return 0;
    },
    peek(key, limit, windowSeconds, nowMs) {
      // Read only: a window that has not started (or has ended) is not created or reset here.
      const w = windows.get(key);
      const start = windowStart(nowMs, windowSeconds);
      const count = w !== undefined && w.windowSeconds === windowSeconds && w.start === start ? w.count : 0;
      return {
        allowed: count < limit,
        limit,
        remaining: Math.max(0, limit - count),
        resetAt: new Date(start + windowSeconds * 1000),
      };
    },
    refund(key, windowSeconds, nowMs) {
      const w = windows.get(key);
      if (w === undefined || w.windowSeconds !== windowSeconds || w.count === 0) return;
      if (w.start !== windowStart(nowMs, windowSeconds)) return;
      w.count--;
    },
  };
}
