import { request as httpRequest, Server } from "node:http";
import { serveApp } from "../../src/http/serve.js";
import { type CreateAppOptions, createApp, type EnvSource, parseEnv } from "../../src/index.js";
import type { TestRedis } from "./redis.js";

/** Upstream secrets the tests hand the proxy; none may ever come back out. */
export const COINGECKO_KEY = "CG-test-coingecko-key-7f3a9c1e";
export const AGENT_KEY = "agent-test-key-51d0b6e2";

/** A response as the test saw it. */
export interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The proxy running on 127.0.0.1, with everything it said recorded for secret scans. */
export interface RunningProxy {
  url: string;
  logLines: string[];
  /** Fetches `path`, reads the whole body, records it. */
  call(path: string, init?: RequestInit): Promise<Seen>;
  /** Sends `path` byte for byte (no client-side `..` folding or re-encoding), records it. */
  raw(path: string, method?: string): Promise<Seen>;
  /** Fetches without reading the body (for streams); headers are recorded. */
  open(path: string, init?: RequestInit): Promise<Response>;
  /** Every response header, body and log line so far, for secret scans. */
  transcript(): string;
  /** Open client connections (so a test can wait until a wave of requests has arrived). */
  connections(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts `createApp` the way `main.ts` does (`serveApp`, h3's `serve()` plus our clientError answer) on port 0 and a log capture;
 * `writeTimeoutMs` shortens the write timeout (20 s).
 * @example const proxy = await startProxy({ COINGECKO_BASE_URL: cg.baseUrl, COINGECKO_API_KEY: COINGECKO_KEY })
 */
export async function startProxy(
  env: EnvSource,
  options: CreateAppOptions = {},
  writeTimeoutMs?: number,
): Promise<RunningProxy> {
  const logLines: string[] = [];
  const seen: string[] = [];
  const app = createApp(parseEnv(env), {
    logDestination: { write: (line) => void logLines.push(line) },
    ...options,
  });
  const server = serveApp(
    app,
    { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false },
    writeTimeoutMs,
  );
  await server.ready();
  const url = (server.url ?? "").replace(/\/$/, "");

  const record = (result: Seen) => {
    seen.push(JSON.stringify(result.headers), result.text);
    return result;
  };

  return {
    url,
    logLines,
    async call(path, init) {
      const response = await fetch(`${url}${path}`, init);
      return record({
        status: response.status,
        headers: Object.fromEntries(response.headers),
        text: await response.text(),
      });
    },
    raw: (path, method = "GET") =>
      new Promise<Seen>((resolve, reject) => {
        // `path` as an option goes out as written; a URL string would be parsed (and folded) first.
        const { hostname, port } = new URL(url);
        const req = httpRequest({ host: hostname, port, path, method }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) headers[name] = String(value);
            resolve(record({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString() }));
          });
        });
        req.on("error", reject);
        req.end();
      }),
    async open(path, init) {
      const response = await fetch(`${url}${path}`, init);
      seen.push(JSON.stringify(Object.fromEntries(response.headers)));
      return response;
    },
    transcript: () => [...seen, ...logLines].join("\n"),
    connections: () =>
      new Promise<number>((resolve, reject) => {
        const nodeServer = server.node?.server;
        if (!(nodeServer instanceof Server)) return reject(new Error("not a node:http server"));
        nodeServer.getConnections((error, count) => (error ? reject(error) : resolve(count)));
      }),
    close: () => server.close(true),
  };
}

/** Where a market-data test's proxy gets its data, time and (optionally) its shared Redis. */
export interface MarketSetup {
  /** The CoinGecko stand-in's base URL. */
  coingeckoUrl: string;
  /** The injected clock of the budget, the limits and the cache. */
  clock: () => number;
  redis?: TestRedis;
}

/**
 * A proxy on the CoinGecko stand-in (start-up check off) with the injected clock, sharing `redis`
 * when given; `env` and `options` are added last.
 * @example await startMarketProxy({ coingeckoUrl: cg.baseUrl, clock: () => now }, { COINGECKO_CALLS_PER_MINUTE: "2" })
 */
export function startMarketProxy(
  setup: MarketSetup,
  env: EnvSource = {},
  options: CreateAppOptions = {},
): Promise<RunningProxy> {
  const { redis, clock } = setup;
  return startProxy(
    {
      COINGECKO_BASE_URL: setup.coingeckoUrl,
      COINGECKO_API_KEY: COINGECKO_KEY,
      COINGECKO_STARTUP_CHECK: "off",
      ...(redis === undefined ? {} : { REDIS_KEY_PREFIX: redis.prefix }),
      ...env,
    },
    { clock, cache: { now: clock }, ...(redis === undefined ? {} : { redis: redis.client() }), ...options },
  );
}
