import { storedTextProblem } from "./stored-text.js";

/**
 * Why a JSON value cannot be stored as `jsonb` and read back as sent, or undefined when it can. Looked
 * at before any schema copies the value, at every depth, keys and strings alike:
 * - a lone surrogate: PostgreSQL refuses it (`\ud800` is not Unicode text) and the insert fails;
 * - U+0000: `jsonb` cannot hold it (`unsupported Unicode escape sequence`);
 * - a key named `__proto__`: every object copy (zod's records, spreads) drops it without a word.
 * docs/api.md (`meta`) lists the same three refusals.
 * @example storedJsonProblem({ a: "\ud800" }) // "must not contain a lone surrogate ..."
 */
export function storedJsonProblem(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      const problem = storedTextProblem(next);
      if (problem !== undefined) return problem;
    } else if (Array.isArray(next)) {
      pending.push(...next);
    } else if (typeof next === "object" && next !== null) {
      for (const [key, child] of Object.entries(next)) {
        if (key === "__proto__") return "must not have a key named __proto__";
        const problem = storedTextProblem(key);
        if (problem !== undefined) return problem;
        pending.push(child);
      }
    }
  }
  return undefined;
}
