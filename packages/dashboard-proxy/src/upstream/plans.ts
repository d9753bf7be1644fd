import type { ApiError } from "../http/errors.js";

/** CoinGecko's plans: `demo` (free, api.coingecko.com), `pro` and `enterprise` (pro-api.coingecko.com). */
export const PLANS = ["demo", "pro", "enterprise"] as const;

/** One CoinGecko plan. */
export type Plan = (typeof PLANS)[number];

/** Which plans offer each `interval`, by route (docs/dashboard-proxy.md; CoinGecko's endpoint notes). */
const INTERVAL_PLANS: Record<"chart" | "ohlc", Partial<Record<string, readonly Plan[]>>> = {
  // market_chart and market_chart/range: `5m` and `hourly` are Enterprise-only, `daily` is everyone's.
  chart: { "5m": ["enterprise"], hourly: ["enterprise"] },
  // ohlc: `daily` and `hourly` need a paid plan.
  ohlc: { daily: ["pro", "enterprise"], hourly: ["pro", "enterprise"] },
};

/**
 * The 400 for an `interval` the proxy's plan does not offer, or undefined when it does (or none was
 * asked for). Checked before any upstream call, so a refused interval costs no budget.
 * @example intervalRefusal("chart", "hourly", "demo") // { code: "BAD_REQUEST", ... }
 */
export function intervalRefusal(
  route: "chart" | "ohlc",
  interval: string | undefined,
  plan: Plan,
): ApiError | undefined {
  if (interval === undefined) return undefined;
  const plans = INTERVAL_PLANS[route][interval];
  if (plans === undefined || plans.includes(plan)) return undefined;
  const needed = plans.join(" or ");
  return {
    code: "BAD_REQUEST",
    message: `The CoinGecko ${plan} plan this proxy uses does not offer interval=${interval}`,
    issues: [{ path: ["interval"], message: `${interval} needs CoinGecko's ${needed} plan` }],
  };
}
