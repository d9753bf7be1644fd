/** The OpenAPI descriptions of routers/operator/audit.ts's operations, by procedure (docs/api.md says the same for people). */
export const operatorAuditDescriptions = {
  list: "Every operator action, newest first: who acted (`actor`: an operator wallet, a token by id and name, or the command line), on which wallet and key, the reason given and what changed (never a secret). Each is recorded in the same transaction as its change. `wallet` keeps the actions taken on one wallet. Paginated: `limit` 1-100 (default 50), `nextCursor` back as `cursor`. Kept EVENTS_RETENTION_DAYS, like the wallets' trails. Scope `wallets:read`.",
} as const;
