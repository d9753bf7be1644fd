/** The OpenAPI descriptions of routers/operator/wallets.ts's operations, by procedure (docs/api.md says the same for people). */
export const operatorWalletsDescriptions = {
  list: "Every wallet that has signed in or held a key, most recently active first (`sort=activeKeys`: most active keys first), ties by address. `q` keeps the addresses that start with it (any case, `0x` optional). Paginated: `limit` 1-100 (default 50), `nextCursor` back as `cursor` with the same sort. Scope `wallets:read`.",
  get: "The wallet as the list shows it, with how many keys it holds (all and active) and its live sessions. A wallet the deployment has never seen is 404. Its keys, trail and usage are the `keys`, `events` and `usage` routes below. Scope `wallets:read`.",
  events:
    "The wallet's own trail as its owner reads it (`GET /api-keys/{wallet}/events`): key changes, sign-ins and sign-outs, newest first. The operator's actions on the wallet are in `GET /operator/events?wallet=`. Scope `wallets:read`.",
} as const;
