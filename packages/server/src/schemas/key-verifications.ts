import { z } from "zod";
import { keyId, timestamp } from "./common.js";
import { VERIFICATION_CODES } from "./verification.js";

/** How many recent verifications a key keeps (docs/decisions.md, "Recent verifications"). */
export const RECENT_VERIFICATIONS_KEPT = 50;

/** Input of keys.verifications. */
export const keyVerificationsInput = z.object({ id: keyId });

/** One of a key's recent verifications: what the verify request asked and how it ended, never the key. */
export const recentVerification = z
  .object({
    at: timestamp.meta({ description: "When the verification was answered" }),
    outcome: z.enum(VERIFICATION_CODES).exclude(["NOT_FOUND"]).meta({
      description: "Its code (the outcomes usage counts; an unknown key has no key to record it under)",
    }),
    permissions: z
      .array(z.string())
      .meta({ description: "The permissions the request asked for ([] when none)" }),
    cost: z
      .number()
      .int()
      .meta({ description: "The cost the request asked (default 1), whether or not the key has credits" }),
    ip: z
      .string()
      .nullable()
      .meta({ description: "The client address the request gave as `ip`; null when none" }),
    refusedBy: z
      .object({
        name: z.string().meta({ description: "The limit's name" }),
        scope: z
          .enum(["key", "wallet", "plan"])
          .meta({ description: "Whose limit: the key's own, its wallet's, or its wallet's plan's" }),
      })
      .nullable()
      .meta({
        description:
          "For RATE_LIMITED: the limit that refused it (the answer's `ratelimit`); null for every other outcome, and for verifications recorded before limits were named",
      }),
  })
  .meta({ id: "RecentVerification" });

/** Output of keys.verifications. */
export const keyVerificationsOutput = z.object({
  verifications: z
    .array(recentVerification)
    .meta({ description: `The key's last ${RECENT_VERIFICATIONS_KEPT} verifications at most, newest first` }),
});

export type RecentVerification = z.infer<typeof recentVerification>;
