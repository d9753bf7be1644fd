const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

const UNITS: { unit: Intl.RelativeTimeFormatUnit; ms: number }[] = [
  { unit: "year", ms: 365 * 86_400_000 },
  { unit: "month", ms: 30 * 86_400_000 },
  { unit: "day", ms: 86_400_000 },
  { unit: "hour", ms: 3_600_000 },
  { unit: "minute", ms: 60_000 },
];

/**
 * `value` relative to `now` in words: "just now" within a minute, else "5 minutes ago", "yesterday",
 * "in 3 days" (future times read as future), in the largest whole unit.
 */
export function formatRelativeTime(value: Date, now: Date): string {
  const diff = value.getTime() - now.getTime();
  const size = Math.abs(diff);
  if (size < 60_000) return "just now";
  for (const { unit, ms } of UNITS) {
    if (size >= ms) return relative.format(Math.trunc(diff / ms), unit);
  }
  return "just now";
}
