import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { planLimitsOf } from "../ratelimit/applied-limits.js";
import { readLimitUse } from "../ratelimit/limit-use.js";
import { keyRateLimitUseDescription } from "../schemas/descriptions/key-rate-limit-use.js";
import { keyRateLimitUseInput, keyRateLimitUseOutput } from "../schemas/key-rate-limit-use.js";
import { sessionProcedure } from "../trpc.js";
import { walletBounds } from "./plan-bounds.js";

/** How `keys.rateLimitUse` is served as REST (see routers/rest.ts). */
export const keyRateLimitUseHttp = {
  method: "GET",
  path: "/api-keys/{id}/ratelimits",
  successStatus: 200,
  errors: [401, 404],
  security: "session",
  cacheControl: "no-store",
} as const satisfies HttpPolicy;

/** `keys.rateLimitUse`: the live use of a key's limits, its wallet's and its plan's, for its owner's session, spending nothing. */
export const keyRateLimitUse = sessionProcedure
  .meta(
    openApiMeta(keyRateLimitUseHttp, {
      tags: ["keys"],
      summary: "A key's rate limits and their live use",
      description: keyRateLimitUseDescription,
    }),
  )
  .input(keyRateLimitUseInput)
  .output(keyRateLimitUseOutput)
  .query(async ({ ctx, input }) => {
    const now = new Date();
    const apiKey = await ctx.keys.get({ id: input.id, wallet: ctx.wallet, now });
    if (apiKey === null) throw new TRPCError({ code: "NOT_FOUND", message: "No such key" });
    const [walletLimits, bounds] = await Promise.all([
      ctx.limits.get(ctx.wallet),
      walletBounds(ctx, ctx.wallet, now),
    ]);
    const ratelimits = await readLimitUse(
      ctx.limitWindows,
      ctx.wallet,
      apiKey.id,
      apiKey.rateLimits,
      walletLimits,
      planLimitsOf(bounds),
      now.getTime(),
    );
    return { ratelimits };
  });
