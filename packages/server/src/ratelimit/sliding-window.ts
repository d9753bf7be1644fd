/**
 * The sliding-window arithmetic shared by the in-process store and the Redis script (the Lua in
 * redis-limits.ts repeats `weightedPrevious` and the admission test word for word). Windows are
 * aligned to epoch multiples of their length; a limit's use at time t is the current window's
 * count plus the previous window's count weighted by how much of it still overlaps the sliding
 * window ending at t, rounded down (docs/verifying-keys.md#sliding-windows). Every value stays an
 * integer below 2^53 (counts <= 1,000,000, windows <= 86,400,000 ms), so the double arithmetic of
 * Lua and JavaScript gives the same answer.
 */

/** Start of the fixed window containing `nowMs`. */
export function windowStartMs(nowMs: number, windowMs: number): number {
  return nowMs - (nowMs % windowMs);
}

/** The previous window's count as it weighs `elapsedMs` into the current window. */
export function weightedPrevious(previous: number, windowMs: number, elapsedMs: number): number {
  return Math.floor((previous * (windowMs - elapsedMs)) / windowMs);
}

/** A limit's counts at one moment: the previous and the current window's. */
export interface WindowCounts {
  previous: number;
  current: number;
}

/** What the limit admits now (never below 0). */
export function remainingOf(
  limit: number,
  windowMs: number,
  elapsedMs: number,
  counts: WindowCounts,
): number {
  return Math.max(0, limit - counts.current - weightedPrevious(counts.previous, windowMs, elapsedMs));
}

/** Whether `cost` more fits now. */
export function fits(
  limit: number,
  windowMs: number,
  elapsedMs: number,
  counts: WindowCounts,
  cost: number,
): boolean {
  return counts.current + weightedPrevious(counts.previous, windowMs, elapsedMs) + cost <= limit;
}

/** The smallest `e` in [lo, hi] with `ok(e)`, for `ok` false then true (hi must satisfy it). */
function firstTrue(lo: number, hi: number, ok: (e: number) => boolean): number {
  let low = lo;
  let high = hi;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (ok(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The earliest epoch ms at which `cost` fits with no other traffic, for a limit whose counts at
 * `nowMs` are `counts`: `nowMs` itself when it fits now. A cost above the limit never fits: the
 * answer is then when both windows are empty.
 */
export function earliestFit(
  limit: number,
  windowMs: number,
  nowMs: number,
  counts: WindowCounts,
  cost: number,
): number {
  const start = windowStartMs(nowMs, windowMs);
  const elapsed = nowMs - start;
  if (fits(limit, windowMs, elapsed, counts, cost)) return nowMs;
  if (cost > limit) return start + 2 * windowMs;
  if (counts.current + cost <= limit) {
    // The previous window's weight is what refuses: it fades within this window.
    const at = firstTrue(elapsed, windowMs, (e) => fits(limit, windowMs, e, counts, cost));
    return start + at;
  }
  // This window's own count refuses: it fades as the previous one through the next window.
  const next = { previous: counts.current, current: 0 };
  return start + windowMs + firstTrue(0, windowMs, (e) => fits(limit, windowMs, e, next, cost));
}
