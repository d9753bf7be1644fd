import { z } from "zod";
import { keyId, nextCursor, pageLimit, timestamp, timestampInput, wallet, walletInput } from "./common.js";
import { keyName } from "./key-name.js";
import { allowedIps, credits, creditsInput, meta, permissions } from "./key-policy.js";
import { BOTH_SHAPES_MESSAGE, rateLimit, rateLimitList } from "./rate-limits.js";
import { storedText } from "./stored-text.js";

/** Where a key is in its life; derived at read time from `revokedAt` and `expiresAt`. */
export const apiKeyStatus = z.enum(["active", "revoked", "expired"]);

/** Where and when a key was found in public (docs/leaks.md); a leaked key is `revoked`. */
export const keyLeak = z
  .object({
    url: z
      .string()
      .nullable()
      .meta({ description: "Where the key was found; null when its holder reported it" }),
    source: z.string().meta({
      description:
        "Who reported it: GitHub's or GitLab's source (`content`, `commit`, `npm`, ...), `gitlab` for GitLab's Token Revocation API, or `self-report`",
    }),
    reportedAt: timestamp,
  })
  .meta({ id: "KeyLeak" });

/** A key as every route returns it. The secret is never part of it. */
export const apiKey = z
  .object({
    id: keyId,
    wallet,
    name: z.string(),
    start: z.string().meta({ description: "Key prefix plus the first 4 random characters, for display" }),
    status: apiKeyStatus,
    createdAt: timestamp,
    expiresAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable().meta({
      description:
        "When the key is or will be revoked. During a roll's grace period this lies in the future and the key is still active.",
    }),
    rateLimit: rateLimit.nullable().meta({
      description:
        "Deprecated (read rateLimits): the limit named `default` in rateLimits as { limit, windowSeconds }; null when the key has none",
    }),
    rateLimits: rateLimitList.meta({
      description:
        "The key's named sliding-window limits (docs/verifying-keys.md#named-limits); [] when it has none",
    }),
    permissions: z.array(z.string()).meta({ description: "What the key may do; verify can require some" }),
    credits: credits.nullable().meta({ description: "null: the key is not metered" }),
    meta: meta.nullable(),
    leak: keyLeak.nullable().meta({
      description: "The first leak report of this key (it is then revoked), or null when none was received",
    }),
    allowedIps: z.array(z.string()).nullable().meta({
      description:
        "The addresses and CIDR blocks verify accepts (`ip`), normalised (10.0.0.0/8, 2001:db8::/32, a single address as /32 or /128); null: any address",
    }),
    issuedBy: z
      .object({ operator: z.literal(true) })
      .nullable()
      .meta({
        description:
          "`{ operator: true }`: the deployment's operator issued this key to the wallet (a roll keeps it); null: the wallet made it",
      }),
  })
  .meta({ id: "ApiKey" });

/** Refuses a body that sends both `rateLimit` and `rateLimits` (docs/api.md). */
export function oneLimitShape(
  body: { rateLimit?: unknown; rateLimits?: unknown },
  ctx: z.core.$RefinementCtx<unknown>,
): void {
  if (body.rateLimit !== undefined && body.rateLimits !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["rateLimit"],
      message: BOTH_SHAPES_MESSAGE,
      input: body.rateLimit,
    });
  }
}

/** The fields of a create's body, before the check that it holds one shape of rate limits. */
export const createKeyFields = z.object({
  name: keyName,
  expiresAt: timestampInput.optional(),
  rateLimit: rateLimit.optional().meta({
    description:
      'Deprecated shape of rateLimits: [{ name: "default", ..., autoApply: true }]; not with rateLimits',
  }),
  rateLimits: rateLimitList.optional(),
  wallet: walletInput.optional().meta({ description: "Optional; if given it must be the session's wallet" }),
  permissions: permissions.optional(),
  credits: creditsInput.optional(),
  meta: meta.optional(),
  allowedIps: allowedIps.nullable().optional(),
});

/** Body of create. */
export const createKeyInput = createKeyFields.superRefine(oneLimitShape);

/** Body of update (PATCH): an absent field is unchanged, `null` clears it, `meta` is replaced whole. */
export const updateKeyInput = z
  .object({
    id: keyId,
    name: keyName.optional(),
    expiresAt: timestampInput.nullable().optional(),
    rateLimit: rateLimit.nullable().optional().meta({
      description:
        "Deprecated: sets (or with null removes) only the limit named `default`, keeping the others; not with rateLimits",
    }),
    rateLimits: rateLimitList
      .optional()
      .meta({ description: "Replaces the whole list ([] removes every limit)" }),
    permissions: permissions.optional(),
    credits: creditsInput.nullable().optional(),
    meta: meta.nullable().optional(),
    allowedIps: allowedIps.nullable().optional(),
  })
  .superRefine(oneLimitShape);

export const updateKeyOutput = z.object({ apiKey });

export const createKeyOutput = z.object({
  key: z.string().meta({ description: "The secret. Returned once, here, and never again." }),
  apiKey,
});

/** Longest `q` of the keys list, after trimming. */
export const MAX_KEY_SEARCH_LENGTH = 100;

export const listKeysInput = z.object({
  wallet: walletInput,
  status: z.enum(["active", "revoked", "expired", "all"]).default("all"),
  q: storedText
    .trim()
    .max(MAX_KEY_SEARCH_LENGTH)
    .optional()
    .meta({
      description: `Search (at most ${MAX_KEY_SEARCH_LENGTH} characters, trimmed): keys whose name contains it in any case, or whose \`start\` begins with it (case-sensitive); empty: every key`,
    }),
  sort: z.enum(["created", "lastUsed", "name"]).default("created").meta({
    description:
      "Sort key: creation time, last use (never-used keys last in both orders) or name (case-insensitive); ties by id",
  }),
  order: z.enum(["asc", "desc"]).default("desc").meta({ description: "Sort direction" }),
  limit: pageLimit,
  // Longer than other lists' cursors: a `name` cursor carries a name of up to 64 characters.
  cursor: storedText.max(512).optional().meta({
    description: "Opaque cursor from a previous page's nextCursor, of the same sort and order (else 400)",
  }),
});

export const listKeysOutput = z.object({
  keys: z.array(apiKey),
  nextCursor,
  total: z.number().int().nonnegative().meta({
    description: "How many keys match wallet, status and q in all pages (not only this one)",
  }),
  activeKeyCap: z.number().int().positive().meta({
    description:
      "The most active keys (grace periods included) this wallet may hold: the server's MAX_ACTIVE_KEYS_PER_WALLET; a create or a roll with grace past it is 409",
  }),
});

/** Input of get: one key of the session's wallet. */
export const getKeyInput = z.object({ id: keyId });
/** Output of get: the key as the list shows it. */
export const getKeyOutput = z.object({ apiKey });

export const revokeKeyInput = z.object({ id: keyId });
export const revokeKeyOutput = z.object({ apiKey });

export const rollKeyInput = z.object({
  id: keyId,
  gracePeriodSeconds: z.number().int().min(0).max(604_800).default(0),
});

export const rollKeyOutput = z.object({
  key: z.string().meta({ description: "The new secret. Returned once, here, and never again." }),
  apiKey,
  previous: apiKey,
});

/** Body of the self-report: a key its holder wants revoked. */
export const reportLeakInput = z.object({
  key: storedText.min(1).max(256).meta({
    description: "The key found in public (any text is accepted; U+0000 and lone surrogates are 400)",
  }),
});

/** The self-report's answer: the same for every key, real or not. */
export const reportLeakOutput = z.object({ received: z.literal(true) });

export type ApiKey = z.infer<typeof apiKey>;
export type UpdateKeyInput = z.infer<typeof updateKeyInput>;
export type ApiKeyStatus = z.infer<typeof apiKeyStatus>;
export type KeyLeak = z.infer<typeof keyLeak>;
