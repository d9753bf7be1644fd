import type { LimitCheck, LimitStore, LimitsOutcome } from "./limit-store.js";
import { fits, type WindowCounts, windowStartMs } from "./sliding-window.js";

interface Entry {
  windowMs: number;
  start: number;
  previous: number;
  current: number;
}

/** The in-process store: always synchronous. */
export interface MemoryLimitStore extends LimitStore {
  apply(wallet: string, checks: readonly LimitCheck[], nowMs: number): LimitsOutcome;
  peek(wallet: string, checks: readonly LimitCheck[], nowMs: number): WindowCounts[];
  refund(wallet: string, checks: readonly LimitCheck[], nowMs: number): void;
  /** Limits currently tracked. */
  readonly size: number;
}

const NO_COUNTS: WindowCounts = Object.freeze({ previous: 0, current: 0 });

/**
 * Sliding-window limits counted in this process: a Map from each limit to its two windows' counts,
 * at most `maxEntries` (finished ones are swept first, then the oldest dropped).
 * @example createMemoryLimitStore().apply(wallet, [{ id: "k:key_1:default", limit: 10, windowMs: 60_000, cost: 1 }], Date.now())
 */
export function createMemoryLimitStore(options: { maxEntries?: number } = {}): MemoryLimitStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, Entry>();

  function makeRoom(nowMs: number): void {
    for (const [id, e] of entries) if (e.start + 2 * e.windowMs <= nowMs) entries.delete(id);
    const target = Math.floor(maxEntries * 0.9);
    for (const id of entries.keys()) {
      if (entries.size <= target) break;
      entries.delete(id);
    }
  }

  // A cached key's checks are the same objects on every verification: their map keys are built once.
  const keys = new WeakMap<LimitCheck, { wallet: string; key: string }>();
  const keyOf = (wallet: string, check: LimitCheck) => {
    const known = keys.get(check);
    if (known !== undefined && known.wallet === wallet) return known.key;
    const key = `${wallet}\u0000${check.id}\u0000${check.windowMs}`;
    keys.set(check, { wallet, key });
    return key;
  };

  /** The limit's counts as of `start`, its windows moved on when time has. */
  function countsAt(entry: Entry | undefined, start: number, windowMs: number): WindowCounts {
    if (entry === undefined || entry.windowMs !== windowMs) return NO_COUNTS;
    if (entry.start === start) return entry;
    if (entry.start === start - windowMs) return { previous: entry.current, current: 0 };
    return NO_COUNTS;
  }

  function read(wallet: string, checks: readonly LimitCheck[], nowMs: number): WindowCounts[] {
    return checks.map((check) => {
      const start = windowStartMs(nowMs, check.windowMs);
      const counts = countsAt(entries.get(keyOf(wallet, check)), start, check.windowMs);
      return { previous: counts.previous, current: counts.current };
    });
  }

  return {
    get size() {
      return entries.size;
    },
    apply(wallet, checks, nowMs) {
      const counts = read(wallet, checks, nowMs);
      let allowed = true;
      for (const [i, check] of checks.entries()) {
        const c = counts[i];
        if (c === undefined) continue;
        const elapsed = nowMs - windowStartMs(nowMs, check.windowMs);
        if (!fits(check.limit, check.windowMs, elapsed, c, check.cost)) allowed = false;
      }
      if (!allowed) return { allowed, counts };
      // Every limit fits: only now is any spent.
      for (const [i, check] of checks.entries()) {
        const c = counts[i];
        if (c === undefined || check.cost === 0) continue;
        c.current += check.cost;
        const id = keyOf(wallet, check);
        if (!entries.has(id) && entries.size >= maxEntries) makeRoom(nowMs);
        entries.delete(id);
        entries.set(id, {
          windowMs: check.windowMs,
          start: windowStartMs(nowMs, check.windowMs),
          previous: c.previous,
          current: c.current,
        });
      }
      return { allowed, counts };
    },
    peek: read,
    refund(wallet, checks, nowMs) {
      for (const check of checks) {
        const entry = entries.get(keyOf(wallet, check));
        if (entry === undefined || entry.start !== windowStartMs(nowMs, check.windowMs)) continue;
        entry.current = Math.max(0, entry.current - check.cost);
      }
    },
  };
}
