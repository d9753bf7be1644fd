import { ilike, like, or, type SQL } from "drizzle-orm";
import { apiKeys } from "../db/schema/index.js";

/** `%`, `_` and the escape character itself, matched literally in a LIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Keys whose name contains `q` in any case, or whose `start` begins with `q` (exactly: the random
 * part of a start is case-sensitive base62). Backslash is PostgreSQL's default LIKE escape.
 * Undefined (no condition) for an empty `q`.
 */
export function searchCondition(q: string | undefined): SQL | undefined {
  if (q === undefined || q === "") return undefined;
  const escaped = escapeLike(q);
  return or(ilike(apiKeys.name, `%${escaped}%`), like(apiKeys.start, `${escaped}%`));
}
