import { z } from "zod";
import { keyId, timestamp } from "./common.js";
import { limitName } from "./rate-limits.js";

/** Input of keys.rateLimitUse. */
export const keyRateLimitUseInput = z.object({ id: keyId });

/** One limit's live use: its setting and how much of it the sliding window holds now. */
export const rateLimitUse = z
  .object({
    name: limitName,
    scope: z
      .enum(["key", "wallet", "plan"])
      .meta({ description: "Whose limit: the key's own, its wallet's, or its wallet's plan's" }),
    limit: z.number().int(),
    windowSeconds: z.number().int(),
    autoApply: z.boolean(),
    used: z.number().int().meta({
      description:
        "The sliding count now: the current window's count plus the previous one's weighted by its remaining overlap",
    }),
    remaining: z
      .number()
      .int()
      .meta({ description: "What the limit still admits now (limit - used, at least 0)" }),
    resetAt: timestamp.meta({ description: "When the current window ends (the count then slides on)" }),
  })
  .meta({ id: "RateLimitUse" });

/** Output of keys.rateLimitUse. */
export const keyRateLimitUseOutput = z.object({
  ratelimits: z.array(rateLimitUse).meta({
    description: "Every limit a verification of this key may apply, the key's own first, then its wallet's",
  }),
});

export type RateLimitUse = z.infer<typeof rateLimitUse>;
