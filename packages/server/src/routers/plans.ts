import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { noInput } from "../schemas/common.js";
import { plansDescriptions } from "../schemas/descriptions/plans.js";
import { getWalletAccountInput, listPlansOutput, walletAccount } from "../schemas/plans.js";
import { publicProcedure, router, sessionProcedure } from "../trpc.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const plansHttp = {
  list: {
    method: "GET",
    path: "/plans",
    successStatus: 200,
    errors: [],
    security: "public",
  },
  wallet: {
    method: "GET",
    path: "/wallets/{wallet}",
    successStatus: 200,
    errors: [401, 403],
    security: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

/** The plans wallets may buy (docs/plans.md). */
export const plansRouter = router({
  list: publicProcedure
    .meta(
      openApiMeta(plansHttp.list, {
        tags: ["plans"],
        summary: "List the plans on offer",
        description: plansDescriptions.list,
      }),
    )
    .input(noInput)
    .output(listPlansOutput)
    .query(async ({ ctx }) => ({ plans: await ctx.plans.list({ publicOnly: true, archived: false }) })),
});

/** The session's wallet: its plan and standing (docs/plans.md#a-wallets-plan). */
export const walletsRouter = router({
  get: sessionProcedure
    .meta(
      openApiMeta(plansHttp.wallet, {
        tags: ["plans"],
        summary: "A wallet's plan",
        description: plansDescriptions.wallet,
      }),
    )
    .input(getWalletAccountInput)
    .output(walletAccount)
    .query(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet)
        throw new TRPCError({ code: "FORBIDDEN", message: "A session can only read its own wallet" });
      const [plan, suspended] = await Promise.all([
        ctx.plans.viewOfWallet(ctx.wallet, new Date()),
        ctx.plans.isSuspended(ctx.wallet),
      ]);
      return { wallet: ctx.wallet, plan, balance: null, suspended };
    }),
});
