/** The OpenAPI descriptions of the plan operations, by procedure (docs/plans.md says the same for people). */
export const plansDescriptions = {
  list: 'No session. The plans wallets may be on that the operator lists (`public`, not archived), the default plan first: price (`null`: free), included credits, `metered`, and the bounds every key of a wallet on it keeps to (`maxActiveKeys` null: the server\'s MAX_ACTIVE_KEYS_PER_WALLET; `permissions` `["*"]`: any; `rateLimits` applied wallet-wide, `keyRateLimit` to every key). docs/plans.md.',
  wallet:
    "The session's wallet: its plan now (`paidUntil`: when it returns to the default plan, null: never; an ended plan is the default plan at once) with its bounds, and whether the operator suspended it. `balance` is null until wallet balances exist (docs/plans.md#phase-2). Another wallet is 403; the operator reads any wallet at `GET /operator/wallets/{wallet}/plan`.",
} as const;

/** The OpenAPI descriptions of routers/operator/plans.ts's operations, by procedure. */
export const operatorPlansDescriptions = {
  list: "Every plan, public or not, the default plan first; `archived=true` includes archived ones. Scope `wallets:read` (or an operator session).",
  create:
    "Creates a plan (docs/plans.md#fields). An id in use (archived plans included) is 409; at most 100 plans. While PLANS_FILE is set, plans are edited in the file: 409 naming it. Recorded in the operator audit (`plan.created`). Scope `plans:write`. Responds 201.",
  update:
    "Changes the fields sent (absent: unchanged). Wallets on the plan verify under the change within about 1 second on every instance; their keys are kept whatever the new bounds (a create or PATCH is then judged against them). The default plan cannot get a price (409). 404 for an unknown id; 409 naming PLANS_FILE while it is set. Audit `plan.updated`. Scope `plans:write`.",
  archive:
    "Archives the plan (plans are never deleted): it is no longer listed or assignable, and wallets on it stay on it until their `paidUntil`. Idempotent. The default plan is 409; 404 for an unknown id; 409 naming PLANS_FILE while it is set. Audit `plan.archived`. Scope `plans:write`.",
  setWalletPlan:
    'Puts the wallet on a plan until `until` (null: no end; then back on the default plan), with a reason. Its keys are kept (nothing is deleted) and verify under the new plan within about 1 second on every instance; over the new key cap, creating a key is 409 until the wallet is under it. An unknown plan is 404, an archived one 409, an `until` in the past 400. The wallet\'s trail records `wallet.plan_changed` with `actor: "operator"` and the reason (its webhook too), the operator audit the actor. Scope `plans:write`.',
  walletPlan:
    "The wallet's plan as its owner reads it at `GET /wallets/{wallet}` (the same shape). Scope `wallets:read`.",
} as const;
