import type { LimitCost, NamedRateLimit } from "../schemas/rate-limits.js";
import type { LimitCheck } from "./limit-store.js";

/** A limit one verification applies: where it counts and what it costs, with its public name and scope. */
export interface AppliedLimit extends LimitCheck {
  name: string;
  scope: "key" | "wallet" | "plan";
}

/** Where a limit counts: the key's own, the wallet's own, the plan's wallet-wide, the plan's on each key. */
type Level = "key" | "wallet" | "plan" | "plan_key";

/** The name of the limit a plan's `keyRateLimit` puts on every key (docs/plans.md#limits). */
export const PLAN_KEY_LIMIT_NAME = "plan_key";

/** The limits a wallet's plan applies (docs/plans.md#limits): wallet-wide ones, and one on every key. */
export interface PlanLimits {
  rateLimits: readonly NamedRateLimit[];
  /** The plan's keyRateLimit as the auto-applied limit named `plan_key`; null: none. */
  keyLimit: NamedRateLimit | null;
}

/** A plan that applies no limit. */
export const NO_PLAN_LIMITS: PlanLimits = Object.freeze({ rateLimits: [], keyLimit: null });

/** Each window's id within the wallet's hash tag: one namespace a level, so no two levels share a count. */
function windowId(level: Level, keyId: string, name: string): string {
  if (level === "key") return `k:${keyId}:${name}`;
  if (level === "wallet") return `w:${name}`;
  if (level === "plan") return `p:${name}`;
  return `kp:${keyId}`;
}

/** The check of one named limit at `cost`. */
function appliedLimit(level: Level, keyId: string, limit: NamedRateLimit, cost: number): AppliedLimit {
  return {
    id: windowId(level, keyId, limit.name),
    name: limit.name,
    scope: level === "plan_key" ? "plan" : level,
    limit: limit.limit,
    windowMs: limit.windowSeconds * 1000,
    cost,
  };
}

/** Every level's limits in the order answers list them: the key's, the wallet's, then the plan's. */
function levels(
  own: readonly NamedRateLimit[],
  wallet: readonly NamedRateLimit[],
  plan: PlanLimits,
): Array<[Level, NamedRateLimit]> {
  const all: Array<[Level, NamedRateLimit]> = [];
  for (const limit of own) all.push(["key", limit]);
  for (const limit of wallet) all.push(["wallet", limit]);
  for (const limit of plan.rateLimits) all.push(["plan", limit]);
  if (plan.keyLimit !== null) all.push(["plan_key", plan.keyLimit]);
  return all;
}

/**
 * The limits a verification that names none applies: every auto-applied one, cost 1, the key's
 * first, the plan's last. Built once per cached key (verify/key-record.ts).
 */
export function autoAppliedLimits(
  keyId: string,
  own: readonly NamedRateLimit[],
  wallet: readonly NamedRateLimit[],
  plan: PlanLimits = NO_PLAN_LIMITS,
): AppliedLimit[] {
  const applied: AppliedLimit[] = [];
  for (const [level, limit] of levels(own, wallet, plan))
    if (limit.autoApply) applied.push(appliedLimit(level, keyId, limit, 1));
  return applied;
}

/**
 * The limits a verification applies when it names some in `asked`: a named limit with its cost at
 * every level that has the name, the other auto-applied ones with cost 1. `unknown` is the first
 * asked name no level has (the caller answers 400 naming it).
 */
export function askedLimits(
  keyId: string,
  own: readonly NamedRateLimit[],
  wallet: readonly NamedRateLimit[],
  asked: readonly LimitCost[],
  plan: PlanLimits = NO_PLAN_LIMITS,
): { applied: AppliedLimit[]; unknown: string | undefined } {
  const costs = new Map<string, number>();
  for (const ask of asked) costs.set(ask.name, ask.cost);
  const applied: AppliedLimit[] = [];
  const found = new Set<string>();
  for (const [level, limit] of levels(own, wallet, plan)) {
    const cost = costs.get(limit.name);
    if (cost !== undefined) found.add(limit.name);
    if (cost !== undefined || limit.autoApply) applied.push(appliedLimit(level, keyId, limit, cost ?? 1));
  }
  const unknown = asked.find((ask) => !found.has(ask.name))?.name;
  return { applied, unknown };
}

/**
 * Every limit of a key and of its wallet, auto-applied or not, at cost 0 (read, never spent): what
 * the key page's live use shows (ratelimit/limit-use.ts).
 */
export function everyLimit(
  keyId: string,
  own: readonly NamedRateLimit[],
  wallet: readonly NamedRateLimit[],
): Array<AppliedLimit & { autoApply: boolean }> {
  return [
    ...own.map((limit) => ({ ...appliedLimit("key", keyId, limit, 0), autoApply: limit.autoApply })),
    ...wallet.map((limit) => ({ ...appliedLimit("wallet", keyId, limit, 0), autoApply: limit.autoApply })),
  ];
}

/** A key record's limit fields from its own, its wallet's and its plan's lists. */
export function recordLimits(
  keyId: string,
  own: NamedRateLimit[],
  wallet: NamedRateLimit[],
  plan: PlanLimits = NO_PLAN_LIMITS,
): { rateLimits: NamedRateLimit[]; walletRateLimits: NamedRateLimit[]; autoLimits: AppliedLimit[] } {
  return {
    rateLimits: own,
    walletRateLimits: wallet,
    autoLimits: autoAppliedLimits(keyId, own, wallet, plan),
  };
}
