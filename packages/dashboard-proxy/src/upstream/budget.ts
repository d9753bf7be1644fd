import type { WindowLimit } from "@keyport/node-edge";
import type { CoinGeckoClient, CoinGeckoRequest } from "./coingecko.js";
import type { UpstreamFailure, UpstreamResult } from "./failure.js";

/** Which budget refused a call: the proxy's per minute or per month, or the asking client's share. */
export type BudgetWindow = "minute" | "month" | "client";

/**
 * Who a call is for. `dashboard`: the request carried the dashboard's session cookie (its markets
 * list and charts), or the call is the proxy's own (the start-up check); such calls may spend the
 * reserve. `anyone`: every other request, which leaves the reserve alone.
 */
export type BudgetClaim = "dashboard" | "anyone";

/**
 * The part of each window anonymous calls may not spend: a third (docs/dashboard-proxy.md, "Upstream
 * budget"). 30 a minute on Demo leaves 20 to anyone and 10 to the dashboard's own pages.
 */
export function reserveOf(limit: number): number {
  return Math.floor(limit / 3);
}

/** What `claim` may spend of a window's `limit`: all of it for the dashboard, else all but the reserve. */
export function roomFor(limit: number, claim: BudgetClaim): number {
  return claim === "dashboard" ? limit : limit - reserveOf(limit);
}

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

/**
 * Every CoinGecko call takes one unit first; none is made once either limit is reached. A call
 * claimed by `anyone` is refused once only the reserve ({@link reserveOf}) of a window is left.
 */
export interface UpstreamBudget {
  readonly limits: BudgetLimits;
  /** Where the counts live: this process, or Redis (shared by every instance). */
  readonly scope: "process" | "shared";
  take(claim: BudgetClaim): Promise<BudgetVerdict>;
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
    async take(claim) {
      const at = now();
      rollMonth(at);
      // `room` calls may be in the last 60 s: the room-th most recent one (the oldest slot when the
      // whole window is open to this claim) must be 60 s old before another call fits.
      const room = roomFor(limits.perMinute, claim);
      const blocking = calls[(next + limits.perMinute - room) % limits.perMinute] ?? Number.NEGATIVE_INFINITY;
      if (at - blocking < MINUTE_MS) {
        return {
          allowed: false,
          window: "minute",
          retryAfterSeconds: secondsUntil(blocking + MINUTE_MS, at),
        };
      }
      if (limits.perMonth !== undefined && monthCalls >= roomFor(limits.perMonth, claim)) {
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

/** The request a call is made for: its client's share key (`clientLimitKey` of @keyport/node-edge: IPv4, or IPv6 by /64) and its claim. */
export interface Asker {
  client: string;
  claim: BudgetClaim;
}

/** A CoinGecko client that charges each call to the asking client's share, then to the budget. */
export interface BudgetedClient extends CoinGeckoClient {
  /** Without `asker` (the start-up check) the call is the proxy's own: no share, the whole budget. */
  send<T>(request: CoinGeckoRequest<T>, signal?: AbortSignal, asker?: Asker): Promise<UpstreamResult<T>>;
}

/** What {@link withBudget} charges besides the budget. */
export interface BudgetOptions {
  /** Upstream calls one client (an IPv4 address, an IPv6 /64) may cause per window. */
  share?: WindowLimit;
  onRefused?: RefusalListener;
}

/**
 * Wraps the CoinGecko client so every call, the start-up check included, is paid for from the
 * budget first, and a call made for a request from its client's share before that (so a client
 * past its share spends nothing of the budget). A refusal is the failure `budget_spent` (429 or a
 * stale copy) or, when the shared budget cannot be read, `unavailable` (503 or a stale copy): no
 * call is made either way.
 */
export function withBudget(
  client: CoinGeckoClient,
  budget: UpstreamBudget,
  options: BudgetOptions = {},
): BudgetedClient {
  const { share, onRefused } = options;
  return {
    ...client,
    async send(request, signal, asker) {
      if (asker !== undefined && share !== undefined) {
        const shared = await share.hit(asker.client);
        if (!shared.allowed) {
          const verdict = {
            allowed: false,
            window: "client",
            retryAfterSeconds: shared.retryAfterSeconds,
          } as const;
          onRefused?.(verdict);
          return { ok: false, failure: spent(verdict.window, verdict.retryAfterSeconds) };
        }
      }
      const verdict = await budget.take(asker?.claim ?? "dashboard");
      if (verdict.allowed) return client.send(request, signal);
      onRefused?.(verdict);
      if (verdict.window === "unavailable") {
        return { ok: false, failure: { kind: "unavailable", detail: "budget store unreachable" } };
      }
      return { ok: false, failure: spent(verdict.window, verdict.retryAfterSeconds) };
    },
  };
}

function spent(window: BudgetWindow, retryAfterSeconds: number): UpstreamFailure {
  return { kind: "budget_spent", window, retryAfterSeconds, detail: `${window} budget spent` };
}
