import { z } from "zod";

/** CoinGecko coin id: lowercase, starts alphanumeric (so never `.` or `..`), no `/`, `%` or spaces. */
export const COIN_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** One coin id, as it may appear in a path segment or a comma list. */
export const coinIdSchema = z
  .string()
  .regex(COIN_ID_PATTERN, "must be a CoinGecko coin id: a-z, 0-9, '.', '_' or '-', starting with a-z or 0-9")
  .refine((id) => id !== "." && id !== "..", "must not be a dot segment");

/** A category id from CoinGecko's `/coins/categories/list` (`layer-1`, `decentralized-finance-defi`). */
export const categorySchema = z
  .string()
  .regex(COIN_ID_PATTERN, "must be a CoinGecko category id: a-z, 0-9, '.', '_' or '-'");

/** A coin's name as CoinGecko spells it (`Bitcoin`, `Wrapped Bitcoin`): letters, digits, spaces, a few marks. */
export const coinNameSchema = z
  .string()
  .regex(
    /^[\p{L}\p{N}](?:[\p{L}\p{N} ._'()&+$-]{0,98}[\p{L}\p{N}.)$+])?$/u,
    "must be a coin name like Bitcoin",
  );

/** A coin's ticker symbol (`btc`, `usdc.e`), in any case: CoinGecko matches it as given. */
export const coinSymbolSchema = z
  .string()
  .regex(/^[\p{L}\p{N}._+$-]{1,40}$/u, "must be a coin symbol like btc");

/** A quote currency (`usd`, `eur`, `btc`...): accepted in any case, normalised to lowercase. */
export const currencySchema = z
  .string()
  .regex(/^[A-Za-z0-9]{1,12}$/, "must be a currency code like usd, eur or btc")
  .transform((value) => value.toLowerCase());

/** `"true" | "false"`: query strings carry text, so no coercion surprises (`"false"` stays false). */
export const booleanFlag = z.enum(["true", "false"]).default("false");

/** CoinGecko's `precision`: `full` or a number of decimal places from 0 to 18, passed on as given. */
export const precisionSchema = z
  .string()
  .regex(/^(full|[0-9]|1[0-8])$/, "must be `full` or a whole number from 0 to 18")
  .optional();

/**
 * A comma-separated list whose entries each pass `item`, between `min` and `max` entries,
 * normalised to de-duplicated, sorted values so equal sets share one cache entry.
 */
export function commaList<T extends z.ZodType<string, string>>(item: T, min: number, max: number) {
  return z
    .string()
    .transform((value) => value.split(","))
    .pipe(z.array(item).min(min).max(max))
    .transform((values) => [...new Set(values)].sort());
}
