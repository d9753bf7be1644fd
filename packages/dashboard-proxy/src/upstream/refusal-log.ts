import type { Logger } from "pino";
import type { BudgetVerdict, RefusalListener } from "./budget.js";

/** How often at most a budget refusal is logged; the lines between are counted into the next. */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * Logs budget refusals as a count, not a line each (a flood of uncached requests would otherwise
 * write a line per request): the first refusal is logged at once, then at most one line a minute,
 * on the first refusal after the minute, with the refusals since the last line by window
 * (`minute`, `month`, `client`, `unavailable`). The metric `keyport_proxy_upstream_budget_refusals_total`
 * counts every one as it happens.
 * @example const onRefused = createRefusalLog(logger); onRefused({ allowed: false, window: "minute", retryAfterSeconds: 12 })
 */
export function createRefusalLog(logger: Logger, now: () => number = Date.now): RefusalListener {
  let lastLineAt = Number.NEGATIVE_INFINITY;
  let counts: Partial<Record<RefusedWindow, number>> = {};
  let total = 0;
  return (verdict) => {
    counts[verdict.window] = (counts[verdict.window] ?? 0) + 1;
    total += 1;
    const at = now();
    if (at - lastLineAt < REFUSAL_LOG_INTERVAL_MS) return;
    logger.warn(
      { upstream: "coingecko", refused: total, byWindow: counts },
      `upstream budget refused ${total} call(s) since the last such line (at most one a minute)`,
    );
    lastLineAt = at;
    counts = {};
    total = 0;
  };
}

type RefusedWindow = Exclude<BudgetVerdict, { allowed: true }>["window"];
