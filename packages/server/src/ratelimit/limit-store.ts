import type { WindowCounts } from "./sliding-window.js";

/** One limit one verification applies: where it counts, its bound, and what this request costs it. */
export interface LimitCheck {
  /** Whose limit: the key's (`k:<keyId>`) or the wallet's (`w`), with its name; unique per wallet. */
  id: string;
  limit: number;
  windowMs: number;
  cost: number;
}

/** The verdict on a set of limits: allowed only when every one fits; counts in the checks' order. */
export interface LimitsOutcome {
  allowed: boolean;
  /** Each limit's counts after this request (its cost added only when all were allowed). */
  counts: WindowCounts[];
}

/**
 * Where sliding-window limits count (this process, or Redis for every instance). Every limit of one
 * verification belongs to one wallet, so one call checks them all and spends each only when all fit
 * (docs/verifying-keys.md#named-limits). Synchronous when in-process.
 */
export interface LimitStore {
  /** Checks every limit at `nowMs`; when all fit, adds each one's cost; else changes nothing. */
  apply(wallet: string, checks: readonly LimitCheck[], nowMs: number): LimitsOutcome | Promise<LimitsOutcome>;
  /** The counts as `apply` would find them, spending nothing. */
  peek(
    wallet: string,
    checks: readonly LimitCheck[],
    nowMs: number,
  ): WindowCounts[] | Promise<WindowCounts[]>;
  /**
   * Gives back what an allowed `apply` at `nowMs` spent (a later step refused the request): never
   * below zero, never into a window that has ended.
   */
  refund(wallet: string, checks: readonly LimitCheck[], nowMs: number): void | Promise<void>;
}
