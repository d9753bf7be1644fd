import type { CoinGeckoClient } from "./coingecko.js";

/** Which budget refused a call. */
export type BudgetWindow = "minute" | "month";

/** The verdict on one upstream call: spend it, or wait `retryAfterSeconds`. */
export type BudgetVerdict =
  | { allowed: true }
  | { allowed: false; window: BudgetWindow; retryAfterSeconds: number }
  /** The shared budget could not be read (Redis down): no call is made, since it might overspend. */
  | { allowed: false; window: "unavailable"; retryAfterSeconds: number };

/** The plan's limits: calls in any 60 s, and calls in a UTC calendar month (unset: no monthly cap). */
export interface BudgetLimits {
  perMinute: number;
  perMonth: number | undefined;
}

/** Calls spent: in the last 60 s, and in the current UTC month. */
export interface BudgetUsage {
  minute: number;
  month: number;
}

/** Every CoinGecko call takes one unit first; none is made once either limit is reached. */
export interface UpstreamBudget {
  readonly limits: BudgetLimits;
  /** Where the counts live: this process, or Redis (shared by every instance). */
  readonly scope: "process" | "shared";
  take(): Promise<BudgetVerdict>;
  usage(): Promise<BudgetUsage>;
}

/** The per-minute window slides: a call leaves it 60 s after it was made. */
export const MINUTE_MS = 60_000;

/** Ms since the epoch when the UTC month holding `nowMs` ends (the next month's first instant). */
export function monthEnd(nowMs: number): number {
  const date = new Date(nowMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** `2026-11` for a time in November 2026 (UTC): the monthly counter's name. */
export function monthLabel(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

/** Seconds until `untilMs`, at least 1 (a `Retry-After` of 0 invites an immediate retry). */
export function secondsUntil(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1_000));
}

/**
 * A budget in this process: a sliding log of the last `perMinute` call times (a ring, so memory is
 * fixed) and a counter per UTC month. Exact for one instance; with several, use the Redis budget.
 * @example createMemoryBudget({ perMinute: 30, perMonth: 10_000 }).take()
 */
export function createMemoryBudget(limits: BudgetLimits, now: () => number = Date.now): UpstreamBudget {
  // calls[i] is a call time; `next` is the oldest slot, overwritten by the next call.
  const calls = new Array<number>(limits.perMinute).fill(Number.NEGATIVE_INFINITY);
  let next = 0;
  let month = "";
  let monthCalls = 0;

  const rollMonth = (at: number) => {
    const label = monthLabel(at);
    if (label !== month) {
      month = label;
      monthCalls = 0;
    }
  };

  return {
    limits,
    scope: "process",
    async take() {
      const at = now();
      rollMonth(at);
      // The oldest of the last `perMinute` calls: while it is under 60 s old, the window is full.
      const oldest = calls[next] ?? Number.NEGATIVE_INFINITY;
      if (at - oldest < MINUTE_MS) {
        return { allowed: false, window: "minute", retryAfterSeconds: secondsUntil(oldest + MINUTE_MS, at) };
      }
      if (limits.perMonth !== undefined && monthCalls >= limits.perMonth) {
        return { allowed: false, window: "month", retryAfterSeconds: secondsUntil(monthEnd(at), at) };
      }
      calls[next] = at;
      next = (next + 1) % calls.length;
      monthCalls += 1;
      return { allowed: true };
    },
    async usage() {
      const at = now();
      rollMonth(at);
      return { minute: calls.filter((time) => at - time < MINUTE_MS).length, month: monthCalls };
    },
  };
}

/** Told of every refusal (for metrics). */
export type RefusalListener = (verdict: Exclude<BudgetVerdict, { allowed: true }>) => void;

/**
 * Wraps the CoinGecko client so every call, the start-up check included, is paid for from the
 * budget first. A refusal is the failure `budget_spent` (429 or a stale copy) or, when the shared
 * budget cannot be read, `unavailable` (503 or a stale copy): no call is made either way.
 */
export function withBudget(
  client: CoinGeckoClient,
  budget: UpstreamBudget,
  onRefused?: RefusalListener,
): CoinGeckoClient {
  return {
    ...client,
    async send(request, signal) {
      const verdict = await budget.take();
      if (verdict.allowed) return client.send(request, signal);
      onRefused?.(verdict);
      if (verdict.window === "unavailable") {
        return { ok: false, failure: { kind: "unavailable", detail: "budget store unreachable" } };
      }
      return {
        ok: false,
        failure: {
          kind: "budget_spent",
          window: verdict.window,
          retryAfterSeconds: verdict.retryAfterSeconds,
          detail: `${verdict.window} budget spent`,
        },
      };
    },
  };
}
