/** The OpenAPI descriptions of routers/operator/payments.ts's operations, by procedure (docs/api.md says the same for people). */
export const operatorPaymentsDescriptions = {
  list: "Every payment settled (or settled and credited) in the range, newest first: wallet, key, payer, amount (whole tokens and base units), asset, network, credits and transaction. `from` inclusive (default 30 days before `to`), `to` exclusive (default now), at most 366 days; `wallet` keeps one wallet's. Paginated: `limit` 1-100 (default 50), `nextCursor` back as `cursor` with the same filters. The same rows as a CSV file: `GET /operator/payments.csv`. Scope `payments:read`.",
  totals:
    "Settled payments in the range summed per (network, asset): over the whole range and per UTC day (days without payments are left out). Amounts are exact decimal strings in the token's base units. Range as the list's. Scope `payments:read`.",
} as const;
