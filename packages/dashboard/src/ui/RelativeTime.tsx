import { formatDateTime } from "../lib/format";
import { formatRelativeTime } from "../lib/relative-time";

/** A time in words relative to now ("3 hours ago"), the exact time in its title (on hover). */
export function RelativeTime({ value, now, empty }: { value: Date | null; now: Date; empty: string }) {
  if (value === null) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={value.toISOString()} title={formatDateTime(value)}>
      {formatRelativeTime(value, now)}
    </time>
  );
}
