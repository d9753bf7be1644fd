import { z } from "zod";
import { booleanFlag, coinIdSchema, commaList, currencySchema } from "./common.js";

// Query schemas are strict: a parameter we do not list (`x_cg_demo_api_key`, `api_key`...) is a 400,
// never silently dropped, so nobody can believe they reached CoinGecko with it.

/** `GET /api/prices/simple` query (CoinGecko `/simple/price`). */
export const simplePriceQuerySchema = z.strictObject({
  ids: commaList(coinIdSchema, 1, 100),
  vs_currencies: commaList(currencySchema, 1, 10),
  include_market_cap: booleanFlag,
  include_24hr_vol: booleanFlag,
  include_24hr_change: booleanFlag,
  include_last_updated_at: booleanFlag,
  precision: z
    .string()
    .regex(/^(full|[0-9]|1[0-8])$/, "must be `full` or a whole number from 0 to 18")
    .optional(),
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
  order: z.enum(MARKET_ORDERS).default("market_cap_desc"),
  per_page: pageNumber(250, 100),
  page: pageNumber(1000, 1),
  sparkline: booleanFlag,
  price_change_percentage: commaList(z.enum(PRICE_CHANGE_WINDOWS), 1, PRICE_CHANGE_WINDOWS.length).optional(),
});

/** The `days` values CoinGecko's market chart accepts that we pass on. */
export const CHART_DAYS = ["1", "7", "14", "30", "90", "180", "365", "max"] as const;

/** `GET /api/prices/chart/:id` query (CoinGecko `/coins/{id}/market_chart`). */
export const chartQuerySchema = z.strictObject({
  vs_currency: currencySchema,
  days: z.enum(CHART_DAYS),
});

/** `:id` of `GET /api/prices/chart/:id`, validated as it came on the wire (never decoded). */
export const chartParamsSchema = z.strictObject({ id: coinIdSchema });

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

const series = z.array(z.tuple([z.number(), z.number()]));

/** `/coins/{id}/market_chart` answer: `[timestamp ms, value]` pairs. */
export const chartResponseSchema = z.object({
  prices: series,
  market_caps: series,
  total_volumes: series,
});

/** The query as sent on the wire (all strings). */
export type SimplePriceQuery = z.input<typeof simplePriceQuerySchema>;
/** The validated, normalised query (ids de-duplicated and sorted, defaults filled). */
export type SimplePriceParams = z.output<typeof simplePriceQuerySchema>;
export type SimplePriceResponse = z.output<typeof simplePriceResponseSchema>;
export type MarketsQuery = z.input<typeof marketsQuerySchema>;
export type MarketsParams = z.output<typeof marketsQuerySchema>;
export type Market = z.output<typeof marketSchema>;
export type MarketsResponse = z.output<typeof marketsResponseSchema>;
export type ChartQuery = z.input<typeof chartQuerySchema>;
export type ChartParams = z.output<typeof chartQuerySchema> & z.output<typeof chartParamsSchema>;
export type ChartResponse = z.output<typeof chartResponseSchema>;
