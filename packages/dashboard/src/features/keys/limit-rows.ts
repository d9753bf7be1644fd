import type { RouterInputs } from "@keyport/server";
import {
  limitName,
  MAX_RATE_LIMIT,
  MAX_RATE_LIMIT_WINDOW_SECONDS,
  MAX_RATE_LIMITS,
  namedRateLimit,
} from "@keyport/server/schemas";
import { formatCount } from "../../lib/format";
import { wholeNumber } from "../../lib/rate-limit";

/** A key's named limits as create and update take them. */
export type NamedLimitsInput = NonNullable<RouterInputs["keys"]["create"]["rateLimits"]>;

/** One row of the key form's limits, as its inputs hold it (text); `id` keeps React's rows apart. */
export interface LimitRow {
  id: string;
  name: string;
  limit: string;
  windowSeconds: string;
  /** Applies to every verification (cost 1), else only to those naming it. */
  autoApply: boolean;
}

/** The input of one row an error can sit beside: `limit-<row>-<column>`. */
export type LimitFieldName = `limit-${number}-${"name" | "limit" | "windowSeconds"}`;

/** The input of `column` in row `index` (the name its error and focus use). */
export const limitField = (index: number, column: "name" | "limit" | "windowSeconds"): LimitFieldName =>
  `limit-${index}-${column}`;

/** At most this many rows: the server's own bound. */
export const MAX_LIMIT_ROWS = MAX_RATE_LIMITS;

let nextRow = 0;
/** A new row's id, unique in this page. */
export function newRowId(): string {
  nextRow += 1;
  return `limit-row-${nextRow}`;
}

/** A blank row: the first is named `default`, as the single-limit shape calls it; later ones are left to the user. */
export function blankLimitRow(rows: readonly LimitRow[]): LimitRow {
  const name = rows.some((row) => row.name.trim() === "default") ? "" : "default";
  return { id: newRowId(), name, limit: "", windowSeconds: "", autoApply: true };
}

/** The rows of what a key holds now (the edit dialog). */
export function limitRowsFrom(limits: NamedLimitsInput): LimitRow[] {
  return limits.map((limit) => ({
    id: newRowId(),
    name: limit.name,
    limit: String(limit.limit),
    windowSeconds: String(limit.windowSeconds),
    autoApply: limit.autoApply ?? true,
  }));
}

/**
 * The rows as `rateLimits`, checked with the server's schemas (names `[a-z0-9_.-]{1,32}` and unique,
 * whole numbers in range, at most 10), or every error beside its input.
 * @example parseLimitRows([{ id: "r", name: "tokens", limit: "1000", windowSeconds: "60", autoApply: false }])
 */
export function parseLimitRows(
  rows: readonly LimitRow[],
):
  | { ok: true; value: NamedLimitsInput }
  | { ok: false; errors: { field: LimitFieldName | null; message: string }[] } {
  const errors: { field: LimitFieldName | null; message: string }[] = [];
  const value: NamedLimitsInput = [];
  const seen = new Set<string>();
  if (rows.length > MAX_LIMIT_ROWS) {
    errors.push({ field: null, message: `A key holds at most ${MAX_LIMIT_ROWS} rate limits.` });
  }
  for (const [index, row] of rows.entries()) {
    const name = row.name.trim();
    if (!limitName.safeParse(name).success) {
      errors.push({
        field: limitField(index, "name"),
        message: "A limit's name is 1-32 characters of a-z, 0-9, _ . -",
      });
    } else if (seen.has(name)) {
      errors.push({ field: limitField(index, "name"), message: `The name “${name}” is used twice.` });
    }
    seen.add(name);
    const limit = wholeNumber(row.limit);
    if (limit === null || !namedRateLimit.shape.limit.safeParse(limit).success) {
      errors.push({
        field: limitField(index, "limit"),
        message: `A whole number of requests from 1 to ${formatCount(MAX_RATE_LIMIT)}.`,
      });
    }
    const windowSeconds = wholeNumber(row.windowSeconds);
    if (windowSeconds === null || !namedRateLimit.shape.windowSeconds.safeParse(windowSeconds).success) {
      errors.push({
        field: limitField(index, "windowSeconds"),
        message: `A whole number of seconds from 1 to ${formatCount(MAX_RATE_LIMIT_WINDOW_SECONDS)}.`,
      });
    }
    if (limit !== null && windowSeconds !== null)
      value.push({ name, limit, windowSeconds, autoApply: row.autoApply });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

/** Whether two rows lists say the same limits (ids aside), so an untouched list is not sent. */
export function sameLimitRows(a: readonly LimitRow[], b: readonly LimitRow[]): boolean {
  const text = (rows: readonly LimitRow[]) =>
    JSON.stringify(rows.map((r) => [r.name.trim(), r.limit.trim(), r.windowSeconds.trim(), r.autoApply]));
  return text(a) === text(b);
}
