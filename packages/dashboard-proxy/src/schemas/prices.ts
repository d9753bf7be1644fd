import { z } from "zod";
import {
  booleanFlag,
  categorySchema,
  coinIdSchema,
  coinNameSchema,
  coinSymbolSchema,
  commaList,
  currencySchema,
  precisionSchema,
} from "./common.js";

// Query schemas are strict: a parameter we do not list (`x_cg_demo_api_key`, `api_key`...) is a 400,
// never silently dropped, so nobody can believe they reached CoinGecko with it. The parameter sets
// are those of CoinGecko's own SDK, generated from its OpenAPI (coingecko/coingecko-typescript,
// src/resources/simple/price.ts, src/resources/coins/markets.ts, src/resources/coins/market-chart.ts
// and src/resources/coins/ohlc.ts), as docs/dashboard-proxy.md#routes lists them.

/** `include_tokens`: for `symbols` lookups, `top` (CoinGecko's default) or `all` matching tokens. */
export const INCLUDE_TOKENS = ["top", "all"] as const;

/** `GET /api/prices/simple` query (CoinGecko `/simple/price`); one of `ids`, `names`, `symbols` is required. */
export const simplePriceQuerySchema = z
  .strictObject({
    ids: commaList(coinIdSchema, 1, 100).optional(),
    names: commaList(coinNameSchema, 1, 100).optional(),
    symbols: commaList(coinSymbolSchema, 1, 100).optional(),
    include_tokens: z.enum(INCLUDE_TOKENS).optional(),
    vs_currencies: commaList(currencySchema, 1, 10),
    include_market_cap: booleanFlag,
    include_24hr_vol: booleanFlag,
    include_24hr_change: booleanFlag,
    include_last_updated_at: booleanFlag,
    precision: precisionSchema,
  })
  .refine((query) => query.ids !== undefined || query.names !== undefined || query.symbols !== undefined, {
    path: ["ids"],
    message: "one of ids, names or symbols is required",
  });

/** CoinGecko's `order` values for `/coins/markets`. */
export const MARKET_ORDERS = [
  "market_cap_desc",
  "market_cap_asc",
  "volume_desc",
  "volume_asc",
  "id_desc",
  "id_asc",
] as const;

/** CoinGecko's `price_change_percentage` timeframes. */
export const PRICE_CHANGE_WINDOWS = ["1h", "24h", "7d", "14d", "30d", "200d", "1y"] as const;

/** CoinGecko's `locale` values for `/coins/markets` (default `en`). */
export const MARKET_LOCALES = [
  "ar",
  "bg",
  "cs",
  "da",
  "de",
  "el",
  "en",
  "es",
  "fi",
  "fr",
  "he",
  "hi",
  "hr",
  "hu",
  "id",
  "it",
  "ja",
  "ko",
  "lt",
  "nl",
  "no",
  "pl",
  "pt",
  "ro",
  "ru",
  "sk",
  "sl",
  "sv",
  "th",
  "tr",
  "uk",
  "vi",
  "zh",
  "zh-tw",
] as const;

const pageNumber = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^[0-9]{1,5}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .default(fallback);

/** `GET /api/prices/markets` query (CoinGecko `/coins/markets`). */
export const marketsQuerySchema = z.strictObject({
  vs_currency: currencySchema,
  ids: commaList(coinIdSchema, 1, 250).optional(),
  names: commaList(coinNameSchema, 1, 250).optional(),
  symbols: commaList(coinSymbolSchema, 1, 250).optional(),
  include_tokens: z.enum(INCLUDE_TOKENS).optional(),
  category: categorySchema.optional(),
  order: z.enum(MARKET_ORDERS).default("market_cap_desc"),
  per_page: pageNumber(250, 100),
  page: pageNumber(1000, 1),
  sparkline: booleanFlag,
  price_change_percentage: commaList(z.enum(PRICE_CHANGE_WINDOWS), 1, PRICE_CHANGE_WINDOWS.length).optional(),
  locale: z.enum(MARKET_LOCALES).optional(),
  precision: precisionSchema,
});

/** The `days` values CoinGecko's OHLC endpoint accepts. */
export const OHLC_DAYS = ["1", "7", "14", "30", "90", "180", "365", "max"] as const;

/** The chart ranges the dashboard offers; the chart route takes any whole number of days, or `max`. */
export const CHART_DAYS = OHLC_DAYS;

/** `interval` of the market chart and its range: `5m` and `hourly` need CoinGecko's Enterprise plan. */
export const CHART_INTERVALS = ["5m", "hourly", "daily"] as const;

/** `interval` of OHLC: Pro and Enterprise plans only. */
export const OHLC_INTERVALS = ["daily", "hourly"] as const;

/** Chart `days`: a whole number of days, 1 or more (no leading zero, so each has one spelling), or `max`. */
const chartDays = z
  .string()
  .regex(/^(max|[1-9][0-9]{0,5})$/, "must be a whole number of days from 1, or max");

/** `GET /api/prices/chart/:id` query (CoinGecko `/coins/{id}/market_chart`). */
export const chartQuerySchema = z.strictObject({
  vs_currency: currencySchema,
  days: chartDays,
  interval: z.enum(CHART_INTERVALS).optional(),
  precision: precisionSchema,
});

/** `:id` of the coin routes, validated as it came on the wire (never decoded). */
export const chartParamsSchema = z.strictObject({ id: coinIdSchema });

/** Reads a range bound as ms since the epoch: UNIX seconds, `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` (UTC). */
export function rangeBoundMs(value: string): number {
  if (/^[0-9]+$/.test(value)) return Number(value) * 1_000;
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : `${value}:00Z`);
}

/** A range bound as CoinGecko's SDK documents it, passed on exactly as given. */
const rangeBound = z
  .string()
  .regex(
    /^([0-9]{1,11}|[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?)$/,
    "must be UNIX seconds or an ISO date (YYYY-MM-DD or YYYY-MM-DDTHH:MM, UTC)",
  )
  .refine((value) => {
    if (/^[0-9]+$/.test(value)) return true;
    // Date.parse rolls 2026-02-30 over into March: a real date prints back as itself.
    const ms = rangeBoundMs(value);
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value);
  }, "must be a real date");

/** `GET /api/prices/range/:id` query (CoinGecko `/coins/{id}/market_chart/range`); `from` is before `to`. */
export const rangeQuerySchema = z
  .strictObject({
    vs_currency: currencySchema,
    from: rangeBound,
    to: rangeBound,
    interval: z.enum(CHART_INTERVALS).optional(),
    precision: precisionSchema,
  })
  .refine((query) => rangeBoundMs(query.from) < rangeBoundMs(query.to), {
    path: ["to"],
    message: "must be later than the `from` bound",
  });

/** `GET /api/prices/ohlc/:id` query (CoinGecko `/coins/{id}/ohlc`). */
export const ohlcQuerySchema = z.strictObject({
  vs_currency: currencySchema,
  days: z.enum(OHLC_DAYS),
  interval: z.enum(OHLC_INTERVALS).optional(),
  precision: precisionSchema,
});

/** `/simple/price` answer: coin id -> field (`usd`, `usd_market_cap`, ...) -> number or null. */
export const simplePriceResponseSchema = z.record(z.string(), z.record(z.string(), z.number().nullable()));

const num = z.number().nullish();
const text = z.string().nullish();

/** One `/coins/markets` row: the well-known fields typed, anything else passed through. */
export const marketSchema = z.looseObject({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  image: text,
  current_price: num,
  market_cap: num,
  market_cap_rank: num,
  fully_diluted_valuation: num,
  total_volume: num,
  high_24h: num,
  low_24h: num,
  price_change_24h: num,
  price_change_percentage_24h: num,
  market_cap_change_24h: num,
  market_cap_change_percentage_24h: num,
  circulating_supply: num,
  total_supply: num,
  max_supply: num,
  ath: num,
  ath_change_percentage: num,
  ath_date: text,
  atl: num,
  atl_change_percentage: num,
  atl_date: text,
  roi: z.looseObject({ times: num, currency: text, percentage: num }).nullish(),
  last_updated: text,
  sparkline_in_7d: z.looseObject({ price: z.array(z.number().nullable()) }).nullish(),
});

/** `/coins/markets` answer. */
export const marketsResponseSchema = z.array(marketSchema);

// CoinGecko sends `[timestamp, null]` where it has no value for a moment; such points pass as null.
const series = z.array(z.tuple([z.number(), z.number().nullable()]));

/** `/coins/{id}/market_chart` and `/market_chart/range` answer: `[timestamp ms, value or null]` pairs. */
export const chartResponseSchema = z.object({
  prices: series,
  market_caps: series,
  total_volumes: series,
});

const price = z.number().nullable();

/** `/coins/{id}/ohlc` answer: `[close time ms, open, high, low, close]` candles. */
export const ohlcResponseSchema = z.array(z.tuple([z.number(), price, price, price, price]));

/** The query as sent on the wire (all strings). */
export type SimplePriceQuery = z.input<typeof simplePriceQuerySchema>;
/** The validated, normalised query (lists de-duplicated and sorted, defaults filled). */
export type SimplePriceParams = z.output<typeof simplePriceQuerySchema>;
export type SimplePriceResponse = z.output<typeof simplePriceResponseSchema>;
export type MarketsQuery = z.input<typeof marketsQuerySchema>;
export type MarketsParams = z.output<typeof marketsQuerySchema>;
export type Market = z.output<typeof marketSchema>;
export type MarketsResponse = z.output<typeof marketsResponseSchema>;
export type ChartQuery = z.input<typeof chartQuerySchema>;
export type ChartParams = z.output<typeof chartQuerySchema> & z.output<typeof chartParamsSchema>;
export type ChartResponse = z.output<typeof chartResponseSchema>;
export type RangeQuery = z.input<typeof rangeQuerySchema>;
export type RangeParams = z.output<typeof rangeQuerySchema> & z.output<typeof chartParamsSchema>;
/** The range route answers the chart's shape. */
export type RangeResponse = ChartResponse;
export type OhlcQuery = z.input<typeof ohlcQuerySchema>;
export type OhlcParams = z.output<typeof ohlcQuerySchema> & z.output<typeof chartParamsSchema>;
export type OhlcResponse = z.output<typeof ohlcResponseSchema>;
