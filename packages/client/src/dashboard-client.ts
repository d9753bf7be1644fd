import {
  type ChartQuery,
  type ChartResponse,
  type ChatMessage,
  chartParamsSchema,
  chartQuerySchema,
  chartResponseSchema,
  chatRequestSchema,
  type MarketsQuery,
  type MarketsResponse,
  marketsQuerySchema,
  marketsResponseSchema,
  type OhlcQuery,
  type OhlcResponse,
  ohlcQuerySchema,
  ohlcResponseSchema,
  type RangeQuery,
  type RangeResponse,
  rangeQuerySchema,
  type SimplePriceQuery,
  type SimplePriceResponse,
  simplePriceQuerySchema,
  simplePriceResponseSchema,
} from "@keyport/dashboard-proxy/schemas";
import { validationFailure } from "@keyport/errors";
import type { z } from "zod";
import { streamChat } from "./chat-stream.js";
import { type FetchFunction, readJson, send } from "./proxy-response.js";

/** Options of `createDashboardClient`. */
export interface DashboardClientOptions {
  /** Where the dashboard proxy is served, e.g. `http://localhost:3001`, or `""` for the page's own origin. */
  baseUrl: string;
  /** A fetch to use instead of the global one. */
  fetch?: FetchFunction;
}

/** Options of `chat.stream`. */
export interface ChatStreamOptions {
  /** Aborting it stops the stream and the request behind it. */
  signal?: AbortSignal;
  /** The agent's conversation id, passed to a plain-text agent (`AGENT_PROTOCOL=text`) only. */
  sessionId?: string;
}

/** Typed calls of the dashboard proxy. Every failure is a KeyportError; invalid input fails before any request. */
export interface DashboardClient {
  prices: {
    /** `GET /api/prices/simple` (CoinGecko `/simple/price`). */
    simple(query: SimplePriceQuery): Promise<SimplePriceResponse>;
    /** `GET /api/prices/markets` (CoinGecko `/coins/markets`). */
    markets(query: MarketsQuery): Promise<MarketsResponse>;
    /** `GET /api/prices/chart/:id` (CoinGecko `/coins/{id}/market_chart`). */
    chart(id: string, query: ChartQuery): Promise<ChartResponse>;
    /** `GET /api/prices/range/:id` (CoinGecko `/coins/{id}/market_chart/range`): `from`/`to` as UNIX seconds or ISO dates. */
    range(id: string, query: RangeQuery): Promise<RangeResponse>;
    /** `GET /api/prices/ohlc/:id` (CoinGecko `/coins/{id}/ohlc`): `[time, open, high, low, close]` candles. */
    ohlc(id: string, query: OhlcQuery): Promise<OhlcResponse>;
  };
  chat: {
    /**
     * `POST /api/chat`: the agent's answer as text deltas, as they arrive (the proxy's event stream,
     * parsed). Throws a KeyportError if the agent fails mid-answer; ends quietly when `signal`
     * aborts. Nothing is sent until the iteration starts.
     */
    stream(messages: ChatMessage[], options?: ChatStreamOptions): AsyncIterable<string>;
  };
}

/**
 * Creates the typed client of the dashboard proxy.
 * @example
 * const dashboard = createDashboardClient({ baseUrl: "http://localhost:3001" });
 * const prices = await dashboard.prices.simple({ ids: "bitcoin,ethereum", vs_currencies: "usd" });
 * for await (const chunk of dashboard.chat.stream([{ role: "user", content: "Hi" }], { signal })) show(chunk);
 */
export function createDashboardClient(options: DashboardClientOptions): DashboardClient {
  // Looked up per call, unbound: browsers refuse `fetch` called as another object's method.
  const fetchFn: FetchFunction = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  const base = options.baseUrl.replace(/\/+$/, "");

  async function getJson<T extends z.ZodType>(
    path: string,
    query: Record<string, string | undefined>,
    schema: T,
  ) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, value);
    const response = await send(fetchFn, `${base}${path}?${search}`, {
      method: "GET",
      headers: { accept: "application/json" },
    });
    return readJson(response, schema);
  }

  // The proxy's own schemas check the input first, so a bad call fails here, not after a round trip.
  function checked<T extends z.ZodType>(schema: T, input: unknown, message: string): void {
    const result = schema.safeParse(input);
    if (!result.success) throw validationFailure(result.error, message);
  }

  return {
    prices: {
      async simple(query) {
        checked(simplePriceQuerySchema, query, "Invalid price query");
        return getJson("/api/prices/simple", query, simplePriceResponseSchema);
      },
      async markets(query) {
        checked(marketsQuerySchema, query, "Invalid markets query");
        return getJson("/api/prices/markets", query, marketsResponseSchema);
      },
      async chart(id, query) {
        checked(chartParamsSchema, { id }, "Invalid coin id");
        checked(chartQuerySchema, query, "Invalid chart query");
        return getJson(`/api/prices/chart/${encodeURIComponent(id)}`, query, chartResponseSchema);
      },
      async range(id, query) {
        checked(chartParamsSchema, { id }, "Invalid coin id");
        checked(rangeQuerySchema, query, "Invalid range query");
        return getJson(`/api/prices/range/${encodeURIComponent(id)}`, query, chartResponseSchema);
      },
      async ohlc(id, query) {
        checked(chartParamsSchema, { id }, "Invalid coin id");
        checked(ohlcQuerySchema, query, "Invalid OHLC query");
        return getJson(`/api/prices/ohlc/${encodeURIComponent(id)}`, query, ohlcResponseSchema);
      },
    },
    chat: {
      stream(messages, streamOptions = {}) {
        const body = {
          messages,
          ...(streamOptions.sessionId === undefined ? {} : { sessionId: streamOptions.sessionId }),
        };
        const parsed = chatRequestSchema.safeParse(body);
        if (!parsed.success) return failing(validationFailure(parsed.error, "Invalid chat request"));
        return streamChat(fetchFn, `${base}/api/chat`, parsed.data, streamOptions.signal);
      },
    },
  };
}

/** An iterable whose first step throws: how `stream` reports bad input without sending anything. */
async function* failing(error: Error): AsyncGenerator<string, void, undefined> {
  yield* [];
  throw error;
}
