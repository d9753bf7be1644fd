import { z } from "zod";
import {
  type ChartParams,
  type ChartResponse,
  chartResponseSchema,
  type MarketsParams,
  type MarketsResponse,
  marketsResponseSchema,
  type OhlcParams,
  type OhlcResponse,
  ohlcResponseSchema,
  type RangeParams,
  type RangeResponse,
  type SimplePriceParams,
  type SimplePriceResponse,
  simplePriceResponseSchema,
} from "../schemas/prices.js";
import { classifyRefusal, readErrorCode } from "./coingecko-errors.js";
import { parseRetryAfter, type UpstreamResult } from "./failure.js";
import { fetchErrorDetail } from "./fetch-error.js";

// The only module that knows CoinGecko's paths, host and key. The key travels in a request header
// and nowhere else: not in the URL, not in a result, not in a failure detail. Query parameters are
// named as in CoinGecko's SDK (coingecko/coingecko-typescript, src/resources/simple/price.ts,
// src/resources/coins/{markets,market-chart,ohlc}.ts) and carry the validated values as given.

/** One CoinGecko call, rebuilt from validated values only. `key` is its normalised identity. */
export interface CoinGeckoRequest<T> {
  path: string;
  query: URLSearchParams;
  schema: z.ZodType<T>;
  /** `path?query` in canonical order: equal requests have equal keys (it holds no secret). */
  key: string;
}

function request<T>(path: string, entries: [string, string | undefined][], schema: z.ZodType<T>) {
  const query = new URLSearchParams();
  for (const [name, value] of entries) if (value !== undefined) query.set(name, value);
  return { path, query, schema, key: `${path}?${query.toString()}` } satisfies CoinGeckoRequest<T>;
}

const coinPath = (id: string, rest: string) => `/coins/${encodeURIComponent(id)}/${rest}`;

/** `/simple/price` for normalised params. */
export function simplePriceRequest(p: SimplePriceParams): CoinGeckoRequest<SimplePriceResponse> {
  return request(
    "/simple/price",
    [
      ["ids", p.ids?.join(",")],
      ["names", p.names?.join(",")],
      ["symbols", p.symbols?.join(",")],
      ["include_tokens", p.include_tokens],
      ["vs_currencies", p.vs_currencies.join(",")],
      ["include_market_cap", p.include_market_cap],
      ["include_24hr_vol", p.include_24hr_vol],
      ["include_24hr_change", p.include_24hr_change],
      ["include_last_updated_at", p.include_last_updated_at],
      ["precision", p.precision],
    ],
    simplePriceResponseSchema,
  );
}

/** `/coins/markets` for normalised params. */
export function marketsRequest(p: MarketsParams): CoinGeckoRequest<MarketsResponse> {
  return request(
    "/coins/markets",
    [
      ["vs_currency", p.vs_currency],
      ["ids", p.ids?.join(",")],
      ["names", p.names?.join(",")],
      ["symbols", p.symbols?.join(",")],
      ["include_tokens", p.include_tokens],
      ["category", p.category],
      ["order", p.order],
      ["per_page", String(p.per_page)],
      ["page", String(p.page)],
      ["sparkline", p.sparkline],
      ["price_change_percentage", p.price_change_percentage?.join(",")],
      ["locale", p.locale],
      ["precision", p.precision],
    ],
    marketsResponseSchema,
  );
}

/** `/coins/{id}/market_chart`; the id is validated already and encoded once more for the path. */
export function chartRequest(p: ChartParams): CoinGeckoRequest<ChartResponse> {
  return request(
    coinPath(p.id, "market_chart"),
    [
      ["vs_currency", p.vs_currency],
      ["days", p.days],
      ["interval", p.interval],
      ["precision", p.precision],
    ],
    chartResponseSchema,
  );
}

/** `/coins/{id}/market_chart/range`; `from` and `to` go as given (UNIX seconds or ISO dates). */
export function rangeRequest(p: RangeParams): CoinGeckoRequest<RangeResponse> {
  return request(
    coinPath(p.id, "market_chart/range"),
    [
      ["vs_currency", p.vs_currency],
      ["from", p.from],
      ["to", p.to],
      ["interval", p.interval],
      ["precision", p.precision],
    ],
    chartResponseSchema,
  );
}

/** `/coins/{id}/ohlc`. */
export function ohlcRequest(p: OhlcParams): CoinGeckoRequest<OhlcResponse> {
  return request(
    coinPath(p.id, "ohlc"),
    [
      ["vs_currency", p.vs_currency],
      ["days", p.days],
      ["interval", p.interval],
      ["precision", p.precision],
    ],
    ohlcResponseSchema,
  );
}

/** `/ping`: CoinGecko's cheapest call, for the start-up check of the key and host. */
export function pingRequest(): CoinGeckoRequest<unknown> {
  return request("/ping", [], z.looseObject({}));
}

/** Where and how to reach CoinGecko. */
export interface CoinGeckoOptions {
  baseUrl: string;
  apiKey: string | undefined;
  keyHeader: string;
  timeoutMs: number;
}

/** Sends CoinGecko requests; every outcome, including timeouts and garbage, is a result value. */
export interface CoinGeckoClient {
  send<T>(request: CoinGeckoRequest<T>, signal?: AbortSignal): Promise<UpstreamResult<T>>;
}

// A markets page of 250 coins with sparklines is about 1 MB; anything far larger is not CoinGecko.
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * Creates the CoinGecko client.
 * @example createCoinGeckoClient({ baseUrl, apiKey, keyHeader: "x-cg-demo-api-key", timeoutMs: 8000 })
 */
export function createCoinGeckoClient(options: CoinGeckoOptions): CoinGeckoClient {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.apiKey !== undefined) headers[options.keyHeader] = options.apiKey;

  return {
    async send<T>(req: CoinGeckoRequest<T>, signal?: AbortSignal): Promise<UpstreamResult<T>> {
      const url = new URL(`${options.baseUrl}${req.path}`);
      url.search = req.query.toString();
      const timeout = AbortSignal.timeout(options.timeoutMs);
      try {
        const response = await fetch(url, {
          headers,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          redirect: "error",
        });
        const status = `HTTP ${response.status}`;
        if (response.status === 429) {
          await response.body?.cancel();
          const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"), Date.now());
          return { ok: false, failure: { kind: "rate_limited", retryAfterSeconds, detail: status } };
        }
        if (!response.ok) {
          const failure = classifyRefusal(response.status, await readErrorCode(response));
          return { ok: false, failure };
        }
        const declared = Number(response.headers.get("content-length") ?? 0);
        if (declared > MAX_RESPONSE_BYTES) {
          await response.body?.cancel();
          return { ok: false, failure: { kind: "bad_gateway", detail: "body too large" } };
        }
        const text = await response.text();
        return parseBody(text, req.schema);
      } catch (error) {
        if (timeout.aborted) return { ok: false, failure: { kind: "timeout", detail: "timeout" } };
        return { ok: false, failure: { kind: "bad_gateway", detail: fetchErrorDetail(error) } };
      }
    },
  };
}

function parseBody<T>(text: string, schema: z.ZodType<T>): UpstreamResult<T> {
  if (text.length > MAX_RESPONSE_BYTES)
    return { ok: false, failure: { kind: "bad_gateway", detail: "body too large" } };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, failure: { kind: "bad_gateway", detail: "invalid JSON" } };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return { ok: false, failure: { kind: "bad_gateway", detail: "unexpected JSON shape" } };
  return { ok: true, value: parsed.data };
}
