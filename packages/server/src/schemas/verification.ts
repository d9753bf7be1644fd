import { z } from "zod";
import { keyId, timestamp, wallet } from "./common.js";
import { cost, ipAddress, MAX_PERMISSIONS, meta, permission } from "./key-policy.js";
import { limitCost, MAX_RATE_LIMITS } from "./rate-limits.js";

/** Most entries of verify's `ratelimits`: every name a key and its wallet can hold. */
export const MAX_VERIFY_LIMITS = 2 * MAX_RATE_LIMITS;

/** The codes of `Verification` (docs/api.md). */
export const VERIFICATION_CODES = [
  "VALID",
  "NOT_FOUND",
  "REVOKED",
  "EXPIRED",
  "IP_NOT_ALLOWED",
  "INSUFFICIENT_PERMISSIONS",
  "USAGE_EXCEEDED",
  "RATE_LIMITED",
  "WALLET_SUSPENDED",
] as const;

export type VerificationCode = (typeof VERIFICATION_CODES)[number];

/** Longest string verify reads as a key; longer ones are 400, anything shorter but malformed is NOT_FOUND. */
export const MAX_VERIFY_KEY_LENGTH = 256;

/** Body of verify: any string, so a malformed key answers NOT_FOUND (200) rather than 400. */
export const verifyKeyInput = z.object({
  key: z
    .string()
    .max(MAX_VERIFY_KEY_LENGTH)
    .meta({ description: "The secret key to check, as the backend received it", example: "kp_…" }),
  permissions: z
    .array(permission)
    .max(MAX_PERMISSIONS)
    .optional()
    .meta({ description: "Permissions the request needs: all must be held, else INSUFFICIENT_PERMISSIONS" }),
  ip: ipAddress.optional().meta({
    description:
      "The end client's address (IPv4 or IPv6), as the backend saw it. A key with allowedIps refuses a verification without it, or from outside the list, with IP_NOT_ALLOWED",
  }),
  cost: cost.meta({
    description: "Credits this request spends (0-1,000, default 1); ignored for a key without credits",
  }),
  ratelimits: z
    .array(limitCost)
    .max(MAX_VERIFY_LIMITS)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      for (const [index, item] of list.entries()) {
        if (seen.has(item.name))
          ctx.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `the name ${JSON.stringify(item.name)} is asked twice`,
            input: item.name,
          });
        seen.add(item.name);
      }
    })
    .optional()
    .meta({
      description:
        "Named limits to apply with a cost (0-10,000; 0 reads without spending), at every level that has the name (the key's and its wallet's); a name no level has is 400. Auto-applied limits not named here apply with cost 1",
    }),
});

/** One applied limit's state after this verification. */
export const verificationRateLimit = z
  .object({
    name: z.string().meta({ description: "The limit's name (`default` for the single-limit shape)" }),
    scope: z.enum(["key", "wallet", "plan"]).meta({
      description: "Whose limit: the key's own, its wallet's, or its wallet's plan's (docs/plans.md)",
    }),
    limit: z.number().int(),
    remaining: z.number().int().meta({
      description:
        "What the limit still admits now (the previous window weighted by its remaining overlap, plus the current one); a refusal spends none",
    }),
    resetAt: timestamp.meta({
      description:
        "When refused: the earliest moment the refused cost fits again, with no other traffic; else the end of the current window",
    }),
  })
  .meta({ id: "VerificationRateLimit" });

/** `Verification` in docs/api.md. */
export const verification = z
  .object({
    valid: z.boolean().meta({ description: "True exactly when code is VALID" }),
    code: z.enum(VERIFICATION_CODES),
    keyId: keyId.nullable().meta({ description: "null for NOT_FOUND" }),
    wallet: wallet.nullable().meta({ description: "The key's owner; null for NOT_FOUND" }),
    expiresAt: timestamp.nullable(),
    ratelimit: verificationRateLimit.nullable().meta({
      description:
        "The binding limit: the one that refused, else the one with the smallest remaining / limit. null when no limit applied, or none was consulted (REVOKED, EXPIRED, IP_NOT_ALLOWED, INSUFFICIENT_PERMISSIONS)",
    }),
    ratelimits: z.array(verificationRateLimit).meta({
      description:
        "Every limit this verification applied, the key's first, in the shape of ratelimit; [] when none",
    }),
    permissions: z
      .array(z.string())
      .meta({ description: "The key's permissions ([] for NOT_FOUND and for a key without any)" }),
    credits: z
      .object({
        remaining: z.number().int().meta({
          description: "What the key can still spend: its allowance plus its purchased credits",
        }),
        purchased: z.number().int().meta({
          description:
            "The purchased credits in remaining: spent after the allowance, never refilled or expired",
        }),
        refillAt: timestamp.nullable().meta({
          description:
            "When the allowance is next set to its refill amount (a UTC day or month start); null without a refill",
        }),
      })
      .nullable()
      .meta({
        description:
          "The key's balance after this verification; null when the key has no credits, or the checks stopped before credits (REVOKED, EXPIRED, IP_NOT_ALLOWED, INSUFFICIENT_PERMISSIONS)",
      }),
    meta: meta.nullable().meta({ description: "The key's meta; null when it has none" }),
    plan: z.object({ id: z.string(), name: z.string() }).nullable().meta({
      description: "The plan of the key's wallet at this verification (docs/plans.md); null for NOT_FOUND",
    }),
  })
  .meta({ id: "Verification" });

export type Verification = z.infer<typeof verification>;
export type VerifyKeyInput = z.input<typeof verifyKeyInput>;
