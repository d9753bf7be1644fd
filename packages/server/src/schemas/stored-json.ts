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
      const problem = textProblem(next);
      if (problem !== undefined) return problem;
    } else if (Array.isArray(next)) {
      pending.push(...next);
    } else if (typeof next === "object" && next !== null) {
      for (const [key, child] of Object.entries(next)) {
        if (key === "__proto__") return "must not have a key named __proto__";
        const problem = textProblem(key);
        if (problem !== undefined) return problem;
        pending.push(child);
      }
    }
  }
  return undefined;
}

// With the `u` flag a surrogate pair is one code point, so this matches only a lone half.
const LONE_SURROGATE = /\p{Cs}/u;

function textProblem(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return "must not contain a lone surrogate (not valid Unicode text)";
  if (text.includes("\u0000")) return "must not contain U+0000 (PostgreSQL cannot store it in JSON)";
  return undefined;
}
