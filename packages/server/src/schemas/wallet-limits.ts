import { z } from "zod";
import { walletInput } from "./common.js";
import { BOTH_SHAPES_MESSAGE, rateLimit, rateLimitList } from "./rate-limits.js";

/** A wallet's limits as GET and PUT answer them. */
export const walletLimits = z
  .object({
    rateLimit: rateLimit.nullable().meta({
      description:
        "Deprecated (read rateLimits): the wallet's limit named `default` as { limit, windowSeconds }; null when it has none",
    }),
    rateLimits: rateLimitList.meta({
      description:
        "Named sliding-window limits shared by all of the wallet's keys, checked with each key's own; [] when none",
    }),
  })
  .meta({ id: "WalletLimits" });

/** Input of `limits.get`. */
export const getWalletLimitsInput = z.object({ wallet: walletInput });

/**
 * Input of `limits.set`: `rateLimits` replaces the whole list; the deprecated `rateLimit` sets (or
 * with null removes) only the limit named `default`. Exactly one of the two.
 */
export const setWalletLimitsInput = z
  .object({
    wallet: walletInput,
    rateLimit: rateLimit.nullable().optional().meta({
      description:
        "Deprecated: sets (null: removes) only the limit named default, keeping the others; not with rateLimits",
    }),
    rateLimits: rateLimitList.optional().meta({ description: "The whole new list ([] removes every limit)" }),
  })
  .superRefine((body, ctx) => {
    if (body.rateLimit !== undefined && body.rateLimits !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["rateLimit"],
        message: BOTH_SHAPES_MESSAGE,
        input: body.rateLimit,
      });
    if (body.rateLimit === undefined && body.rateLimits === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["rateLimits"],
        message: "Send rateLimits (the whole list) or rateLimit (the default limit)",
        input: undefined,
      });
  });

export type WalletLimits = z.infer<typeof walletLimits>;
