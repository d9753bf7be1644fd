import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { readLimitUse } from "../ratelimit/limit-use.js";
import { keyRateLimitUseDescription } from "../schemas/descriptions/key-rate-limit-use.js";
import { keyRateLimitUseInput, keyRateLimitUseOutput } from "../schemas/key-rate-limit-use.js";
import { sessionProcedure } from "../trpc.js";

/** How `keys.rateLimitUse` is served as REST (see routers/rest.ts). */
export const keyRateLimitUseHttp = {
  method: "GET",
  path: "/api-keys/{id}/ratelimits",
  successStatus: 200,
  errors: [401, 404],
  security: "session",
  cacheControl: "no-store",
} as const satisfies HttpPolicy;

/** `keys.rateLimitUse`: the live use of a key's limits and its wallet's, for its owner's session, spending nothing. */
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
    const walletLimits = await ctx.limits.get(ctx.wallet);
    const ratelimits = await readLimitUse(
      ctx.limitWindows,
      ctx.wallet,
      apiKey.id,
      apiKey.rateLimits,
      walletLimits,
      now.getTime(),
    );
    return { ratelimits };
  });
