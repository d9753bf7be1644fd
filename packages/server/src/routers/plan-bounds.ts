import type { Context } from "../context.js";
import { firstOutsidePlan } from "../plans/permission-fit.js";
import { boundsOf } from "../plans/plan-rows.js";
import { refuse } from "../refusal.js";
import type { PlanBounds } from "../schemas/plans.js";
import { KEY_WRITES_SUSPENDED } from "./wallet-suspended.js";

/** The bounds of the wallet's plan now, with the plan's id and whether the wallet is suspended (docs/plans.md#bounds). */
export interface WalletBounds extends PlanBounds {
  planId: string;
  suspended: boolean;
}

/**
 * Reads the bounds a key of `wallet` keeps to now: its plan's (the default plan once a paid one ended),
 * and its suspension, in one statement.
 */
export async function walletBounds(
  ctx: Pick<Context, "plans">,
  wallet: string,
  now: Date,
): Promise<WalletBounds> {
  const plan = await ctx.plans.ofWallet(wallet, now);
  return {
    planId: plan.row.id,
    suspended: plan.suspended,
    ...boundsOf(plan.row, ctx.plans.settings.maxActiveKeys),
  };
}

/**
 * Refuses permissions the plan does not allow: 403 `FORBIDDEN`, reason `PLAN_LIMIT`, details
 * `{ field, plan, bound }`, the message naming all three. A key holding fewer or narrower patterns
 * than the plan is always allowed (plans/permission-fit.ts).
 */
export function requirePermissionsInPlan(bounds: WalletBounds, permissions: readonly string[]): void {
  const outside = firstOutsidePlan(permissions, bounds.permissions);
  if (outside === undefined) return;
  throw refuse(
    "FORBIDDEN",
    "PLAN_LIMIT",
    `permissions: ${outside} is outside the plan ${bounds.planId}, which allows ${bounds.permissions.join(", ")}`,
    { field: "permissions", plan: bounds.planId, bound: bounds.permissions },
  );
}

/**
 * The wallet's own key writes while it is suspended: 403 `FORBIDDEN` / `WALLET_SUSPENDED`
 * (docs/operator.md#suspension). Its sessions ended with the suspension; this refuses one made just
 * before it landed.
 */
export function refuseKeyWritesWhenSuspended(bounds: WalletBounds): void {
  if (bounds.suspended) throw refuse("FORBIDDEN", "WALLET_SUSPENDED", KEY_WRITES_SUSPENDED);
}
