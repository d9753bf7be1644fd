import type { Context } from "../context.js";
import { refuse } from "../refusal.js";

/**
 * 403 `FORBIDDEN` / `WALLET_SUSPENDED` when the operator has suspended `wallet` (docs/operator.md#suspension),
 * with `message` saying what it may not do; nothing otherwise.
 * @example await refuseWhenSuspended(ctx, wallet, "This wallet is suspended by this deployment: its keys cannot be changed");
 */
export async function refuseWhenSuspended(
  ctx: Pick<Context, "suspensions">,
  wallet: string,
  message: string,
): Promise<void> {
  if (await ctx.suspensions.isSuspended(wallet)) throw refuse("FORBIDDEN", "WALLET_SUSPENDED", message);
}

/** The key writes' refusal (create, update, roll). */
export const KEY_WRITES_SUSPENDED =
  "This wallet is suspended by this deployment: its keys cannot be created or changed until the operator lifts the suspension";
