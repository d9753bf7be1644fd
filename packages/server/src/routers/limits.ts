import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
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

/** The wallet-wide limit of the session's wallet: one rate-limit window shared by all its keys. */
export const limitsRouter = router({
  get: sessionProcedure
    .meta(
      openApiMeta(limitsHttp.get, {
        tags: ["limits"],
        summary: "A wallet's wallet-wide limit",
        description:
          "`rateLimit` is one window shared by all of the wallet's keys, checked after each key's own; null when the wallet has none. Another wallet is 403.",
      }),
    )
    .input(getWalletLimitsInput)
    .output(walletLimits)
    .query(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) throw new TRPCError({ code: "FORBIDDEN", message: OTHER_WALLET });
      return { rateLimit: await ctx.limits.get(ctx.wallet) };
    }),

  set: sessionProcedure
    .meta(
      openApiMeta(limitsHttp.set, {
        tags: ["limits"],
        summary: "Set or remove a wallet's wallet-wide limit",
        description:
          "Replaces the limit: `{ rateLimit: { limit, windowSeconds } }` (the bounds of a key's rate limit) or `{ rateLimit: null }` to remove it. A verification then consumes the key's own window, and, if that allowed it, the wallet's; when the wallet's refuses, the key's window gets the request back and the answer is RATE_LIMITED. Changing only `limit` keeps the current window's count; a new `windowSeconds` starts a new window. Takes effect from the next verification on this instance and within about 1 second on others. A change records a `limits.updated` event (`{ rateLimit, previousRateLimit }`); a PUT of the limit already in force records none. Another wallet is 403.",
      }),
    )
    .input(setWalletLimitsInput)
    .output(walletLimits)
    .mutation(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) throw new TRPCError({ code: "FORBIDDEN", message: OTHER_WALLET });
      return { rateLimit: await ctx.limits.set(ctx.wallet, input.rateLimit, new Date()) };
    }),
});
