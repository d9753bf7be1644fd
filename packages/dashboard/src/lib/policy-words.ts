import { formatCount } from "./format";

/** Credits as the keys table and the events list show them. */
export interface CreditsLike {
  remaining: number;
  refill: { interval: "daily" | "monthly"; amount: number } | null;
}

/** `1,000 left`, `40 left, refills to 100 daily`, or `unlimited` for an unmetered key. */
export function formatCredits(credits: CreditsLike | null): string {
  if (credits === null) return "unlimited";
  const left = `${formatCount(credits.remaining)} left`;
  if (credits.refill === null) return left;
  return `${left}, refills to ${formatCount(credits.refill.amount)} ${credits.refill.interval}`;
}

/**
 * Permissions in a narrow cell: the first `shown`, then `+N more`; `none` for an empty list.
 * @example formatPermissions(["a", "b", "c"], 2) // "a, b +1 more"
 */
export function formatPermissions(permissions: readonly string[], shown = 2): string {
  if (permissions.length === 0) return "none";
  const head = permissions.slice(0, shown).join(", ");
  const rest = permissions.length - shown;
  return rest > 0 ? `${head} +${rest} more` : head;
}
