/**
 * Deepest nesting of arrays and objects any JSON body may have (docs/decisions.md, "JSON depth"):
 * far more than any real input, and few enough that no recursive walk (zod, superjson, a driver's
 * serialiser) can exhaust the stack on what passes.
 */
export const MAX_JSON_DEPTH = 64;

/** The message of the 400 for a body nested deeper than `MAX_JSON_DEPTH`. */
export const JSON_TOO_DEEP = `The JSON must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * True when `value` (as `JSON.parse` returns it) nests arrays and objects more than `max` levels
 * deep: `1` and `"a"` are depth 0, `[1]` and `{}` depth 1, `{"a":[1]}` depth 2. Iterative, and it
 * stops at the first container past `max`, so a hostile value costs no more than its size.
 * @example jsonDeeperThan(JSON.parse("[[[1]]]"), 2) // true
 */
export function jsonDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === undefined || typeof next.value !== "object" || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > max) return true;
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const child of children) {
      if (typeof child === "object" && child !== null) pending.push({ value: child, depth });
    }
  }
  return false;
}
