/** The verdict for one request. */
export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts requests per client in fixed windows. */
export interface RateLimiter {
  /** In-process limiters answer at once; the Redis one (shared by instances) with a promise. */
  hit(client: string): RateLimitVerdict | Promise<RateLimitVerdict>;
}

/** Limit per window, and the clock (injectable so unit tests need no waiting). */
export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  now?: () => number;
}

// One shared verdict for every allowed request: the in-process limiter allocates nothing on a pass.
const ALLOWED: RateLimitVerdict = Object.freeze({ allowed: true });

/**
 * A fixed-window limiter: each client's window opens at its first request and lasts `windowMs`.
 * Expired windows are swept once per window, so memory follows the number of recent clients.
 * @example createRateLimiter({ limit: 600, windowMs: 60_000 }).hit("203.0.113.7")
 */
export function createRateLimiter(options: RateLimiterOptions): { hit(client: string): RateLimitVerdict } {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();

  const sweep = (at: number) => {
    if (at - lastSweep < options.windowMs) return;
    lastSweep = at;
    for (const [client, window] of windows) {
      if (at - window.start >= options.windowMs) windows.delete(client);
    }
  };

  return {
    hit(client) {
      const at = now();
      sweep(at);
      const window = windows.get(client);
      if (window === undefined || at - window.start >= options.windowMs) {
        windows.set(client, { start: at, count: 1 });
        return ALLOWED;
      }
      if (window.count < options.limit) {
        window.count += 1;
        return ALLOWED;
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + options.windowMs - at) / 1_000));
      return { allowed: false, retryAfterSeconds };
    },
  };
}
