import { Counter, Histogram, type Registry } from "prom-client";
import type { AgentClient } from "../upstream/agent.js";
import type { CoinGeckoClient } from "../upstream/coingecko.js";
import type { UpstreamResult } from "../upstream/failure.js";

/** The upstreams the proxy calls. */
export type UpstreamName = "coingecko" | "agent";

/** Counts and times upstream calls by upstream and outcome. */
export interface UpstreamMetrics {
  /** Wraps the CoinGecko client so each call is counted and timed. */
  countCoinGecko(client: CoinGeckoClient): CoinGeckoClient;
  /** Wraps the agent client; its time is to the response head, the stream is not waited for. */
  countAgent(client: AgentClient): AgentClient;
}

/**
 * Creates `keyport_proxy_upstream_requests_total{upstream,outcome}` and
 * `keyport_proxy_upstream_request_duration_seconds{upstream}`. The outcome is `ok` or the
 * failure's kind (`rate_limited` for a 429, `not_found`, `rejected` for a 400, `plan_limit` and
 * `misconfigured` for CoinGecko's plan and key refusals, `bad_gateway` for
 * other statuses and unusable bodies, `timeout`, `client_closed`): never a URL, a query or a key.
 */
export function createUpstreamMetrics(registry: Registry): UpstreamMetrics {
  const calls = new Counter({
    name: "keyport_proxy_upstream_requests_total",
    help: "Calls to an upstream, by upstream and outcome (ok or the failure kind)",
    labelNames: ["upstream", "outcome"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "keyport_proxy_upstream_request_duration_seconds",
    help: "Upstream call time (for the agent, until its response head), by upstream",
    labelNames: ["upstream"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  function observe(upstream: UpstreamName, result: UpstreamResult<unknown>, started: number): void {
    calls.inc({ upstream, outcome: result.ok ? "ok" : result.failure.kind });
    duration.observe({ upstream }, (performance.now() - started) / 1_000);
  }

  return {
    countCoinGecko: (client) => ({
      async send(request, signal) {
        const started = performance.now();
        const result = await client.send(request, signal);
        observe("coingecko", result, started);
        return result;
      },
    }),
    countAgent: (client) => ({
      async send(body, clientSignal) {
        const started = performance.now();
        const result = await client.send(body, clientSignal);
        observe("agent", result, started);
        return result;
      },
    }),
  };
}
