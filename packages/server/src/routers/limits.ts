import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { limitsDescriptions } from "../schemas/descriptions/limits.js";
import {
  defaultLimitOf,
  MAX_RATE_LIMITS,
  type NamedRateLimit,
  withDefaultLimit,
} from "../schemas/rate-limits.js";
import { getWalletLimitsInput, setWalletLimitsInput, walletLimits } from "../schemas/wallet-limits.js";
import { router, sessionProcedure } from "../trpc.js";

const OTHER_WALLET = "A session can only read or change its own wallet's limits";

/** How each procedure is served as REST (see routers/rest.ts). */
export const limitsHttp = {
  get: {
    method: "GET",
    path: "/api-keys/{wallet}/limits",
    successStatus: 200,
    errors: [401, 403],
    security: "session",
  },
  set: {
    method: "PUT",
    path: "/api-keys/{wallet}/limits",
    successStatus: 200,
    errors: [401, 403, 413, 415],
    security: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

const view = (rateLimits: NamedRateLimit[]) => ({ rateLimit: defaultLimitOf(rateLimits), rateLimits });

/** The wallet-wide limits of the session's wallet: named sliding-window limits shared by all its keys. */
export const limitsRouter = router({
  get: sessionProcedure
    .meta(
      openApiMeta(limitsHttp.get, {
        tags: ["limits"],
        summary: "A wallet's wallet-wide limits",
        description: limitsDescriptions.get,
      }),
    )
    .input(getWalletLimitsInput)
    .output(walletLimits)
    .query(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) throw new TRPCError({ code: "FORBIDDEN", message: OTHER_WALLET });
      return view(await ctx.limits.get(ctx.wallet));
    }),

  set: sessionProcedure
    .meta(
      openApiMeta(limitsHttp.set, {
        tags: ["limits"],
        summary: "Set or remove a wallet's wallet-wide limits",
        description: limitsDescriptions.set,
      }),
    )
    .input(setWalletLimitsInput)
    .output(walletLimits)
    .mutation(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) throw new TRPCError({ code: "FORBIDDEN", message: OTHER_WALLET });
      const { rateLimit, rateLimits } = input;
      const set = await ctx.limits.set(
        ctx.wallet,
        (current) => rateLimits ?? withDefaultLimit(current, rateLimit ?? null),
        new Date(),
        MAX_RATE_LIMITS,
      );
      if (set === "too_many") {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `A wallet holds at most ${MAX_RATE_LIMITS} rate limits: adding the default one would exceed it`,
        });
      }
      return view(set);
    }),
});
