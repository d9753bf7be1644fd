/** The OpenAPI descriptions of routers/operator/usage.ts's operations, by procedure (docs/api.md says the same for people). */
export const operatorUsageDescriptions = {
  get: "Every wallet's verifications by UTC day and outcome over the range (zero-filled), the totals, and the 10 wallets and 10 keys with the most verifications, most first, each with its counts by outcome. `from` inclusive (default 30 days before `to`), `to` exclusive (default now), widened to whole UTC days, at most 366 days. Read from the daily rollups, written every USAGE_FLUSH_INTERVAL_MS. Scope `usage:read`.",
} as const;
