import { z } from "zod";

/** Largest rate limit, in verifications (or cost units) per window. */
export const MAX_RATE_LIMIT = 1_000_000;
/** Longest rate-limit window: one day. */
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;
/** Most named limits on one key or one wallet (docs/verifying-keys.md#named-limits). */
export const MAX_RATE_LIMITS = 10;
/** The name `rateLimit` (the single-limit shape) stands for. */
export const DEFAULT_LIMIT_NAME = "default";
/** Largest cost one verification may ask of one named limit. */
export const MAX_LIMIT_COST = 10_000;

/** Whose a limit is: the key's own, its wallet's own, or its wallet's plan's (docs/plans.md#limits). */
export const limitScope = z.enum(["key", "wallet", "plan"]).meta({
  description: "Whose limit: the key's own, its wallet's, or its wallet's plan's (docs/plans.md)",
});
export type LimitScope = z.infer<typeof limitScope>;

/** A single rate limit: at most `limit` verifications per sliding `windowSeconds`. */
export const rateLimit = z
  .object({
    limit: z.number().int().min(1).max(MAX_RATE_LIMIT),
    windowSeconds: z.number().int().min(1).max(MAX_RATE_LIMIT_WINDOW_SECONDS),
  })
  .meta({ id: "RateLimit" });

/** A limit's name: what `ratelimits` on verify and the answers call it. */
export const limitName = z
  .string()
  .regex(/^[a-z0-9_.-]{1,32}$/, "must be 1-32 characters of a-z, 0-9, _ . -")
  .meta({ example: "tokens" });

/** One named limit of a key or a wallet. */
export const namedRateLimit = z
  .object({
    name: limitName,
    limit: z.number().int().min(1).max(MAX_RATE_LIMIT),
    windowSeconds: z.number().int().min(1).max(MAX_RATE_LIMIT_WINDOW_SECONDS),
    autoApply: z.boolean().default(true).meta({
      description:
        "true: every verification applies it with cost 1 unless it names it in `ratelimits`; false: only verifications naming it apply it",
    }),
  })
  .meta({ id: "NamedRateLimit" });

/** A list of named limits: at most `MAX_RATE_LIMITS`, names unique. */
export const rateLimitList = z
  .array(namedRateLimit)
  .max(MAX_RATE_LIMITS, `must hold at most ${MAX_RATE_LIMITS} limits`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [index, limit] of list.entries()) {
      if (seen.has(limit.name)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: `the name ${JSON.stringify(limit.name)} is used twice`,
          input: limit.name,
        });
      }
      seen.add(limit.name);
    }
  })
  .meta({
    description: `At most ${MAX_RATE_LIMITS} named sliding-window limits, names unique; \`default\` is the one \`rateLimit\` stands for`,
  });

/** What a verification asks of one named limit. */
export const limitCost = z
  .object({
    name: limitName,
    cost: z
      .number()
      .int()
      .min(0)
      .max(MAX_LIMIT_COST)
      .meta({ description: `0-${MAX_LIMIT_COST}; 0 reads the limit without spending` }),
  })
  .meta({ id: "LimitCost" });

/** The message of a request that sends both shapes. */
export const BOTH_SHAPES_MESSAGE =
  'Send either rateLimit or rateLimits, not both: keep rateLimits (rateLimit is the limit named "default" in it)';

/**
 * The single-limit shape as a list: `{ limit, windowSeconds }` is the auto-applied limit named
 * `default`; null is no limit.
 */
export function defaultLimitList(single: RateLimit | null): NamedRateLimit[] {
  return single === null
    ? []
    : [
        {
          name: DEFAULT_LIMIT_NAME,
          limit: single.limit,
          windowSeconds: single.windowSeconds,
          autoApply: true,
        },
      ];
}

/** The single-limit view of a list: its `default` limit, null when it has none. */
export function defaultLimitOf(list: readonly NamedRateLimit[]): RateLimit | null {
  const found = list.find((limit) => limit.name === DEFAULT_LIMIT_NAME);
  return found === undefined ? null : { limit: found.limit, windowSeconds: found.windowSeconds };
}

/**
 * A list with its `default` limit replaced by `single` (removed when null), the others kept in
 * order: what the single-limit shape means on a PATCH or PUT from a client that knows no other.
 */
export function withDefaultLimit(
  list: readonly NamedRateLimit[],
  single: RateLimit | null,
): NamedRateLimit[] {
  const index = list.findIndex((limit) => limit.name === DEFAULT_LIMIT_NAME);
  const others = list.filter((limit) => limit.name !== DEFAULT_LIMIT_NAME);
  if (single === null) return others;
  const replacement = defaultLimitList(single)[0];
  if (replacement === undefined) return others;
  const at = index === -1 ? others.length : index;
  return [...others.slice(0, at), replacement, ...others.slice(at)];
}

export type RateLimit = z.infer<typeof rateLimit>;
export type NamedRateLimit = z.infer<typeof namedRateLimit>;
export type LimitCost = z.infer<typeof limitCost>;
