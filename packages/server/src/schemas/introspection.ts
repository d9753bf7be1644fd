import { z } from "zod";
import { apiKeyStatus } from "./api-key.js";
import { keyId, timestamp } from "./common.js";
import { MAX_VERIFY_KEY_LENGTH } from "./verification.js";

/** Body of introspect: any string up to verify's bound, so a malformed key answers 404 like an unknown one. */
export const introspectKeyInput = z.object({
  key: z
    .string()
    .max(MAX_VERIFY_KEY_LENGTH)
    .meta({ description: "The secret key to describe: the caller's own key", example: "kp_…" }),
});

/** The binding limit (the key's or its wallet's) as the next verification will find it. */
export const introspectionRateLimit = z
  .object({
    name: z.string().meta({ description: "The limit's name" }),
    scope: z.enum(["key", "wallet", "plan"]),
    limit: z.number().int(),
    remaining: z
      .number()
      .int()
      .meta({ description: "What the limit admits now; the next verification naming no limit takes one" }),
    resetAt: timestamp.meta({ description: "The end of the limit's current window" }),
  })
  .meta({ id: "IntrospectionRateLimit" });

/** A metered key's balance now, spending nothing. */
export const introspectionCredits = z
  .object({
    remaining: z
      .number()
      .int()
      .meta({ description: "What a verification can spend now, a refill due included" }),
    purchased: z
      .number()
      .int()
      .meta({ description: "The part of `remaining` bought by top-ups, which no refill resets" }),
    refillAt: timestamp.nullable().meta({
      description:
        "When the allowance is next set to its refill amount (a UTC day or month start); null without a refill",
    }),
  })
  .meta({ id: "IntrospectionCredits" });

/** `Introspection` in docs/api.md: a key's own state, read by whoever holds it. */
export const introspection = z
  .object({
    keyId,
    status: apiKeyStatus,
    expiresAt: timestamp.nullable(),
    ratelimit: introspectionRateLimit.nullable().meta({
      description:
        "The binding auto-applied limit, the key's own or its wallet's (the smallest remaining / limit); null when neither has one",
    }),
    credits: introspectionCredits.nullable().meta({ description: "null: the key is not metered" }),
    suspended: z.boolean().meta({
      description:
        "The deployment's operator suspended the key's wallet: verifications answer WALLET_SUSPENDED until it is lifted (docs/operator.md#suspension)",
    }),
    topUpUrl: z.string().nullable().meta({
      description:
        "Where to buy credits for this key (POST, x402); null while payments are off, when the key is not metered or not active, or while its wallet is suspended",
    }),
  })
  .meta({ id: "Introspection" });

export type Introspection = z.infer<typeof introspection>;
export type IntrospectionCredits = z.infer<typeof introspectionCredits>;
