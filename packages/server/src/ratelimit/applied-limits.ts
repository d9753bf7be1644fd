import type { LimitCost, NamedRateLimit } from "../schemas/rate-limits.js";
import type { LimitCheck } from "./limit-store.js";

/** A limit one verification applies: where it counts and what it costs, with its public name and scope. */
export interface AppliedLimit extends LimitCheck {
  name: string;
  scope: "key" | "wallet";
}

/** The check of one named limit at `cost`. */
function appliedLimit(
  scope: "key" | "wallet",
  keyId: string,
  limit: NamedRateLimit,
  cost: number,
): AppliedLimit {
  return {
    id: scope === "key" ? `k:${keyId}:${limit.name}` : `w:${limit.name}`,
    name: limit.name,
    scope,
    limit: limit.limit,
    windowMs: limit.windowSeconds * 1000,
    cost,
  };
}

/**
 * The limits a verification that names none applies: every auto-applied one, cost 1, the key's
 * first. Built once per cached key (verify/key-record.ts).
 */
export function autoAppliedLimits(
  keyId: string,
  own: readonly NamedRateLimit[],
  wallet: readonly NamedRateLimit[],
): AppliedLimit[] {
  const applied: AppliedLimit[] = [];
  for (const limit of own) if (limit.autoApply) applied.push(appliedLimit("key", keyId, limit, 1));
  for (const limit of wallet) if (limit.autoApply) applied.push(appliedLimit("wallet", keyId, limit, 1));
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
): { applied: AppliedLimit[]; unknown: string | undefined } {
  const costs = new Map<string, number>();
  for (const ask of asked) costs.set(ask.name, ask.cost);
  const applied: AppliedLimit[] = [];
  const found = new Set<string>();
  const add = (scope: "key" | "wallet", limit: NamedRateLimit) => {
    const cost = costs.get(limit.name);
    if (cost !== undefined) found.add(limit.name);
    if (cost !== undefined || limit.autoApply) applied.push(appliedLimit(scope, keyId, limit, cost ?? 1));
  };
  for (const limit of own) add("key", limit);
  for (const limit of wallet) add("wallet", limit);
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

/** A key record's three limit fields from its own and its wallet's lists. */
export function recordLimits(
  keyId: string,
  own: NamedRateLimit[],
  wallet: NamedRateLimit[],
): { rateLimits: NamedRateLimit[]; walletRateLimits: NamedRateLimit[]; autoLimits: AppliedLimit[] } {
  return { rateLimits: own, walletRateLimits: wallet, autoLimits: autoAppliedLimits(keyId, own, wallet) };
}
