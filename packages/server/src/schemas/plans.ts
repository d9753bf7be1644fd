import { z } from "zod";
import { timestamp, timestampInput, wallet, walletInput } from "./common.js";
import { MAX_CREDITS, permission } from "./key-policy.js";
import { rateLimit, rateLimitList } from "./rate-limits.js";
import { storedText } from "./stored-text.js";

/** Most plans a deployment holds (archived ones included). */
export const MAX_PLANS = 100;
/** The plan of a deployment that defines none (docs/plans.md#the-default-plan). */
export const IMPLICIT_PLAN_ID = "free";
/** Most permission patterns a plan lists. */
export const MAX_PLAN_PERMISSIONS = 50;
/** The largest key cap a plan may set. */
export const MAX_PLAN_ACTIVE_KEYS = 100_000;

/** A plan's id: a slug (`free`, `pro`), what wallets and the operator API name it by. */
export const planId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,31}$/,
    "must be 1-32 characters of a-z, 0-9, _ and -, starting with a letter or digit",
  )
  .meta({ example: "pro" });

/** A paid plan's price: `amount` whole tokens (a decimal string, as top-ups) for `days` days. */
export const planPrice = z
  .object({
    amount: z
      .string()
      .regex(
        /^(0|[1-9]\d{0,11})(\.\d{1,6})?$/,
        'must be a decimal string of whole tokens, e.g. "10" or "4.99"',
      )
      // Only for a well-formed amount: a malformed one has its line already.
      .refine((value) => !/^\d/.test(value) || Number(value) > 0, "must be above 0")
      .meta({ example: "10" }),
    days: z.number().int().min(1).max(3660),
  })
  .meta({ id: "PlanPrice" });

/** Credits a wallet on the plan gets each UTC period (the wallet balance: docs/plans.md#phase-2). */
export const includedCredits = z
  .object({
    amount: z.number().int().min(1).max(MAX_CREDITS),
    interval: z.enum(["daily", "monthly"]),
  })
  .meta({ id: "IncludedCredits" });

/** The patterns a wallet's keys may hold: `["*"]` allows any (docs/plans.md#permissions). */
export const planPermissions = z
  .array(permission)
  .min(1, 'must list at least one pattern (["*"] allows any)')
  .max(MAX_PLAN_PERMISSIONS)
  .transform((list) => [...new Set(list)]);

/** The fields an operator sets: one schema for PLANS_FILE, the operator API and OpenAPI. */
export const planFields = z.object({
  name: storedText.trim().min(1).max(64).meta({ description: "What the dashboard shows" }),
  description: storedText.trim().max(500).default(""),
  price: planPrice.nullable().default(null).meta({ description: "null: a free plan" }),
  includedCredits: includedCredits.nullable().default(null).meta({
    description: "Credits for the wallet each UTC period; null: none. Stored now, spent from phase 2 on",
  }),
  metered: z.boolean().default(false).meta({
    description:
      "true: verifications will spend from the wallet balance (phase 2); false: keys verify without credits unless they have their own",
  }),
  maxActiveKeys: z.number().int().min(1).max(MAX_PLAN_ACTIVE_KEYS).nullable().default(null).meta({
    description: "The key cap of wallets on the plan; null: the server's MAX_ACTIVE_KEYS_PER_WALLET",
  }),
  rateLimits: rateLimitList.default([]).meta({
    description: "Named limits applied wallet-wide to every verification of the wallet's keys (scope `plan`)",
  }),
  keyRateLimit: rateLimit.nullable().default(null).meta({
    description: "An extra limit on every key of the wallet (named `plan_key`, scope `plan`); null: none",
  }),
  permissions: planPermissions.default(["*"]),
  public: z.boolean().default(true).meta({ description: "Listed by GET /plans" }),
});

/** A plan as PLANS_FILE and `POST /operator/plans` give it. */
export const planInput = planFields.extend({ id: planId }).strict().meta({ id: "PlanInput" });

/** A PATCH: any field but the id; absent is unchanged. */
export const planPatch = z
  .object({
    name: planFields.shape.name.optional(),
    description: storedText.trim().max(500).optional(),
    price: planPrice.nullable().optional(),
    includedCredits: includedCredits.nullable().optional(),
    metered: z.boolean().optional(),
    maxActiveKeys: z.number().int().min(1).max(MAX_PLAN_ACTIVE_KEYS).nullable().optional(),
    rateLimits: rateLimitList.optional(),
    keyRateLimit: rateLimit.nullable().optional(),
    permissions: planPermissions.optional(),
    public: z.boolean().optional(),
  })
  .strict();

/** The bounds of a plan, as refusals and the wallet view name them. */
export const planBounds = z
  .object({
    maxActiveKeys: z
      .number()
      .int()
      .meta({ description: "The key cap (MAX_ACTIVE_KEYS_PER_WALLET when the plan sets none)" }),
    permissions: z.array(z.string()),
    rateLimits: rateLimitList,
    keyRateLimit: rateLimit.nullable(),
    metered: z.boolean(),
  })
  .meta({ id: "PlanBounds" });

/** A stored plan, as the operator and `GET /plans` see it. */
export const plan = z
  .object({
    id: planId,
    name: z.string(),
    description: z.string(),
    price: planPrice.nullable(),
    includedCredits: includedCredits.nullable(),
    metered: z.boolean(),
    maxActiveKeys: z.number().int().nullable(),
    rateLimits: rateLimitList,
    keyRateLimit: rateLimit.nullable(),
    permissions: z.array(z.string()),
    public: z.boolean(),
    default: z.boolean().meta({ description: "The plan of every wallet that is on no other (DEFAULT_PLAN)" }),
    archivedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Plan" });

/** PLANS_FILE: the plans and which is the default (DEFAULT_PLAN wins when both name one). */
export const plansFile = z
  .object({
    plans: z.array(planInput).min(1).max(MAX_PLANS),
    defaultPlan: planId.optional(),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    for (const [index, entry] of file.plans.entries()) {
      if (seen.has(entry.id))
        ctx.addIssue({
          code: "custom",
          path: ["plans", index, "id"],
          message: `the id ${JSON.stringify(entry.id)} is used twice`,
          input: entry.id,
        });
      seen.add(entry.id);
    }
  });

export const listPlansOutput = z.object({ plans: z.array(plan) });
export const operatorListPlansInput = z
  .object({
    // Text, as a query string carries it.
    archived: z
      .enum(["true", "false"])
      .default("false")
      .meta({ description: "`true`: include archived plans" }),
  })
  .optional();
export const planIdInput = z.object({ id: planId });
export const updatePlanInput = planPatch.extend({ id: planId });
export const planOutput = z.object({ plan });

/** The wallet's plan as its owner and the operator see it. */
export const walletPlanView = z
  .object({
    id: planId,
    name: z.string(),
    paidUntil: timestamp
      .nullable()
      .meta({ description: "When the wallet returns to the default plan; null: never" }),
    bounds: planBounds,
  })
  .meta({ id: "WalletPlan" });

export const getWalletAccountInput = z.object({ wallet: walletInput });
export const walletAccount = z
  .object({
    wallet,
    plan: walletPlanView,
    balance: z
      .null()
      .meta({ description: "The wallet balance: null until it exists (docs/plans.md#phase-2)" }),
    suspended: z.boolean(),
  })
  .meta({ id: "WalletAccount" });

export const setWalletPlanInput = z.object({
  wallet: walletInput,
  planId,
  until: timestampInput
    .nullable()
    .default(null)
    .meta({ description: "When the wallet returns to the default plan; null: no end" }),
  reason: storedText.trim().min(1).max(500),
});
export const setWalletPlanOutput = z.object({ wallet, plan: walletPlanView });

export type Plan = z.infer<typeof plan>;
export type PlanInput = z.output<typeof planInput>;
export type PlanPatch = z.output<typeof planPatch>;
export type PlanBounds = z.infer<typeof planBounds>;
export type WalletPlanView = z.infer<typeof walletPlanView>;
