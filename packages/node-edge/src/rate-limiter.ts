/** The answer to one `consume`: whether the request fits and the window's state after it. */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in this window after this one (0 when rejected). */
  remaining: number;
  /** End of the current window: the moment the count starts again from zero. */
  resetAt: Date;
}

/**
 * Fixed-window rate limiting per key: the store a limit counts in (this process, or Redis for
 * every instance). Windows are aligned to epoch multiples of `windowSeconds`, so every instance
 * agrees on where a window starts without coordination. A rejected request consumes nothing.
 *
 * `consume` may answer synchronously (the in-process limiter) or with a Promise (Redis):
 * callers on the hot path branch on the result instead of always paying for a Promise.
 */
export interface RateLimiter {
  consume(
    key: string,
    limit: number,
    windowSeconds: number,
    nowMs: number,
  ): RateLimitResult | Promise<RateLimitResult>;
  /**
   * Gives back one request that `consume` allowed at `nowMs` in the same window (a later step of
   * the same request refused it). Nothing happens when that window has ended or holds no
   * request, so a give-back can never raise a later window's headroom.
   */
  refund(key: string, windowSeconds: number, nowMs: number): void | Promise<void>;
  /**
   * The window containing `nowMs` as the next `consume` would find it, counting nothing: `allowed`
   * says whether one more request fits, `remaining` how many do. A window nobody has used is full.
   */
  peek(
    key: string,
    limit: number,
    windowSeconds: number,
    nowMs: number,
  ): RateLimitResult | Promise<RateLimitResult>;
}
