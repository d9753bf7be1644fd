import { Counter, Gauge, type Registry } from "prom-client";
import type { RefusalListener, UpstreamBudget } from "../upstream/budget.js";

/**
 * Creates `keyport_proxy_upstream_budget_limit{window}` (calls allowed per minute and, when set,
 * per month), `keyport_proxy_upstream_budget_used{window}` (spent in the last 60 s and this UTC
 * month; read from Redis when shared, at scrape time) and
 * `keyport_proxy_upstream_budget_refusals_total{window}` (calls not made: `minute`, `month`, or
 * `unavailable` when the shared budget could not be read). Returns the refusal listener.
 */
export function createBudgetMetrics(registry: Registry, budget: UpstreamBudget): RefusalListener {
  const limit = new Gauge({
    name: "keyport_proxy_upstream_budget_limit",
    help: "CoinGecko calls the proxy may make, by window (minute: any 60 s; month: UTC calendar month)",
    labelNames: ["window"],
    registers: [registry],
  });
  limit.set({ window: "minute" }, budget.limits.perMinute);
  if (budget.limits.perMonth !== undefined) limit.set({ window: "month" }, budget.limits.perMonth);

  new Gauge({
    name: "keyport_proxy_upstream_budget_used",
    help: "CoinGecko calls made, by window (minute: the last 60 s; month: this UTC month), across instances when shared",
    labelNames: ["window"],
    registers: [registry],
    async collect() {
      try {
        const usage = await budget.usage();
        this.set({ window: "minute" }, usage.minute);
        this.set({ window: "month" }, usage.month);
      } catch {
        // Redis unreachable: the series go missing for this scrape rather than reporting a wrong 0.
        this.reset();
      }
    },
  });

  const refusals = new Counter({
    name: "keyport_proxy_upstream_budget_refusals_total",
    help: "CoinGecko calls not made because the budget was spent (minute, month) or could not be read (unavailable)",
    labelNames: ["window"],
    registers: [registry],
  });
  for (const window of ["minute", "month", "unavailable"]) refusals.inc({ window }, 0);
  return (verdict) => refusals.inc({ window: verdict.window });
}
