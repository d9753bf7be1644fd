import type { PlanRow } from "../db/schema/index.js";
import type { Plan, PlanBounds, PlanInput } from "../schemas/plans.js";

/** What decides a plan's view beyond its row: the default plan's id and the server's key cap. */
export interface PlanSettings {
  /** The plan of every wallet on no other (DEFAULT_PLAN, the file's defaultPlan, else `free`). */
  defaultPlanId: string;
  /** MAX_ACTIVE_KEYS_PER_WALLET: the cap of a plan that sets none. */
  maxActiveKeys: number;
  /** PLANS_FILE when set: plan edits through the API are refused while it is. */
  plansFile: string | null;
}

/** The public shape of a stored plan. */
export function toPlan(row: PlanRow, settings: PlanSettings): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price ?? null,
    includedCredits: row.includedCredits ?? null,
    metered: row.metered,
    maxActiveKeys: row.maxActiveKeys,
    rateLimits: row.rateLimits,
    keyRateLimit: row.keyRateLimit ?? null,
    permissions: row.permissions,
    public: row.public,
    default: row.id === settings.defaultPlanId,
    archivedAt: row.archivedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** What a plan allows a wallet's keys (the key cap resolved against the server's). */
export function boundsOf(
  row: Pick<Plan, "maxActiveKeys" | "permissions" | "rateLimits" | "keyRateLimit" | "metered">,
  maxActiveKeys: number,
): PlanBounds {
  return {
    maxActiveKeys: row.maxActiveKeys ?? maxActiveKeys,
    permissions: row.permissions,
    rateLimits: row.rateLimits,
    keyRateLimit: row.keyRateLimit ?? null,
    metered: row.metered,
  };
}

/** The columns a plan input writes. */
export function planValues(input: PlanInput, now: Date) {
  return {
    id: input.id,
    name: input.name,
    description: input.description,
    price: input.price,
    includedCredits: input.includedCredits,
    metered: input.metered,
    maxActiveKeys: input.maxActiveKeys,
    rateLimits: input.rateLimits,
    keyRateLimit: input.keyRateLimit,
    permissions: input.permissions,
    public: input.public,
    updatedAt: now,
  };
}

/**
 * The plan of a deployment that configures none (docs/plans.md#the-default-plan): today's behaviour,
 * no bounds, the server's key cap.
 */
export function implicitPlan(id: string): PlanInput {
  return {
    id,
    name: "Free",
    description: "",
    price: null,
    includedCredits: null,
    metered: false,
    maxActiveKeys: null,
    rateLimits: [],
    keyRateLimit: null,
    permissions: ["*"],
    public: true,
  };
}
