import { TRPCError } from "@trpc/server";
import type { Context } from "../../context.js";
import type { OperatorIdentity } from "../../operator/operator-service.js";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { operatorWalletsDescriptions } from "../../schemas/descriptions/operator-wallets.js";
import { suspendWalletInput, unsuspendWalletInput } from "../../schemas/operator.js";
import { getWalletOutput } from "../../schemas/operator-wallets.js";
import { operatorProcedure } from "../../trpc.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const walletSuspensionHttp = {
  suspend: {
    method: "POST",
    path: "/operator/wallets/{wallet}/suspend",
    successStatus: 200,
    errors: [401, 403, 404, 409, 413, 415],
    security: "operator",
    requires: "wallets:write",
  },
  unsuspend: {
    method: "POST",
    path: "/operator/wallets/{wallet}/unsuspend",
    successStatus: 200,
    errors: [401, 403, 404, 413, 415],
    security: "operator",
    requires: "wallets:write",
  },
} as const satisfies Record<string, HttpPolicy>;

const NOT_FOUND = "No such wallet: this deployment has never seen it sign in or hold a key";

/** Suspends or lifts, then answers the wallet as `operator.wallets.get` does (its state now). */
async function change(
  ctx: Pick<Context, "suspensions" | "operators"> & { operator: OperatorIdentity },
  input: { wallet: string; reason?: string | undefined },
  suspend: boolean,
) {
  const params = {
    wallet: input.wallet,
    reason: input.reason ?? null,
    actor: ctx.operator.actor,
    now: new Date(),
  };
  const outcome = suspend ? await ctx.suspensions.suspend(params) : await ctx.suspensions.unsuspend(params);
  if (!outcome.found) throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
  const found = await ctx.operators.getWallet(input.wallet);
  if (found === null) throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
  return found;
}

/** `operator.wallets.suspend` and `unsuspend` (docs/operator.md#suspension), spread into the wallets router. */
export const walletSuspensionProcedures = {
  suspend: operatorProcedure("wallets:write")
    .meta(
      openApiMeta(walletSuspensionHttp.suspend, {
        tags: ["operator"],
        summary: "Suspend a wallet",
        description: operatorWalletsDescriptions.suspend,
      }),
    )
    .input(suspendWalletInput)
    .output(getWalletOutput)
    .mutation(async ({ ctx, input }) => {
      if (ctx.operators.isOperatorWallet(input.wallet)) {
        throw new TRPCError({
          code: "CONFLICT",
          message: "This wallet is an operator of this deployment (OPERATOR_WALLETS): it cannot be suspended",
        });
      }
      return change(ctx, input, true);
    }),

  unsuspend: operatorProcedure("wallets:write")
    .meta(
      openApiMeta(walletSuspensionHttp.unsuspend, {
        tags: ["operator"],
        summary: "Lift a wallet's suspension",
        description: operatorWalletsDescriptions.unsuspend,
      }),
    )
    .input(unsuspendWalletInput)
    .output(getWalletOutput)
    .mutation(({ ctx, input }) => change(ctx, input, false)),
};
