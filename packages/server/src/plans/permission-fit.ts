/**
 * Whether a held pattern fits a plan's patterns (docs/plans.md#permissions): some plan pattern Q
 * equals it, is `*`, or ends in `*` with the held pattern starting with what precedes it. So `*`
 * allows anything, `prices:*` allows `prices:read` and `prices:*`, and nothing but `*` allows `*`.
 * @example fitsPlan("prices:read", ["prices:*"]) // true
 */
export function fitsPlan(held: string, plan: readonly string[]): boolean {
  for (const allowed of plan) {
    if (allowed === held || allowed === "*") return true;
    if (allowed.endsWith("*") && held.startsWith(allowed.slice(0, -1))) return true;
  }
  return false;
}

/** The first of `held` that no plan pattern allows, undefined when all fit. */
export function firstOutsidePlan(held: readonly string[], plan: readonly string[]): string | undefined {
  return held.find((permission) => !fitsPlan(permission, plan));
}
