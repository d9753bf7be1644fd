import type { ServerChild } from "../lib/child.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { startBenchServer, startDashboardProxy } from "../lib/servers.js";
import { percentile } from "../lib/stats.js";
import { measureTtfbAlternating } from "../lib/ttfb.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

const PRICES: Target = { kind: "ratio", min: 0.7 };
const PRICES_REDIS: Target = { kind: "report", label: "reported beside proxy-prices" };
const CHAT: Target = { kind: "overhead", maxMs: 5 };
const PRICES_PATH = "/api/prices/simple?ids=bitcoin,ethereum&vs_currencies=usd,eur";
const CHAT_BODY = JSON.stringify({ messages: [{ role: "user", content: "What moved ETH today?" }] });

function ttfbSummary(name: string, samples: readonly number[]) {
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  // Sequential requests: the rate is one over the mean time to first byte.
  const rps = total > 0 ? (samples.length * 1000) / total : 0;
  return { name, rps, p50, p99, rounds: [{ rps, p50, p99 }], failures: 0 };
}

/** A cached-price contestant: which proxy, and the row it makes. */
interface PricesRun {
  name: string;
  label: string;
  target: Target;
  proxy: ServerChild;
  note?: string;
}

async function runPrices(ctx: ScenarioContext, run: PricesRun, results: ScenarioResult[]): Promise<void> {
  const baseline = await startBenchServer("bare-h3", ctx.children);
  try {
    // One request fills the cache; every measured request is then a hit.
    const first = await fetch(run.proxy.url + PRICES_PATH);
    await first.arrayBuffer();
    if (first.status !== 200) throw new Error(`proxy answered ${first.status} to the price request`);
    ctx.log(`${run.name}: cached /api/prices/simple`);
    const rounds = await ctx.alternateRun([
      { key: "bare h3 constant JSON", spec: { url: baseline.url + PRICES_PATH } },
      { key: run.label, spec: { url: run.proxy.url + PRICES_PATH } },
    ]);
    results.push(
      judge({
        name: run.name,
        database: null,
        target: run.target,
        scenario: summarize(`proxy GET /api/prices/simple (${run.label})`, rounds.get(run.label) ?? []),
        baseline: summarize("bare h3 constant JSON", rounds.get("bare h3 constant JSON") ?? []),
        rssMb: await run.proxy.rssMb(),
        note: run.note,
      }),
    );
  } finally {
    await baseline.stop();
  }
}

/**
 * The same cached hit on a proxy with REDIS_URL: the per-IP limit is a Redis script per request and
 * a copy lives in the process's LRU in front of Redis. Reported beside proxy-prices, not judged
 * (the 0.7 target is measured without Redis: docs/benchmarks.md).
 */
async function runPricesRedis(
  ctx: ScenarioContext,
  coingecko: ServerChild,
  results: ScenarioResult[],
): Promise<void> {
  const proxy = await startDashboardProxy(ctx.children, {
    ...proxyEnv(coingecko),
    REDIS_URL: ctx.options.redisUrl,
    // Fixed, so repeated runs reuse (and expire) the same few keys instead of adding new ones.
    REDIS_KEY_PREFIX: "keyport:bench:",
  });
  try {
    await runPrices(
      ctx,
      {
        name: "proxy-redis-prices",
        label: "proxy prices with Redis (cached)",
        target: PRICES_REDIS,
        proxy,
        note: "REDIS_URL set: per-IP limit in Redis, copy from the in-process LRU",
      },
      results,
    );
  } finally {
    await proxy.stop();
  }
}

async function runChat(
  ctx: ScenarioContext,
  proxy: ServerChild,
  agent: ServerChild,
  results: ScenarioResult[],
): Promise<void> {
  const count = ctx.options.ttfbRequests;
  ctx.log(`proxy-chat-ttfb: ${count} sequential streamed chats each, direct and through the proxy`);
  const direct = { url: `${agent.url}/chat`, body: CHAT_BODY };
  const proxied = { url: `${proxy.url}/api/chat`, body: CHAT_BODY };
  // Warm both paths (JIT, keep-alive sockets) before sampling.
  await measureTtfbAlternating([direct, proxied], Math.min(50, count));
  const [directSamples = [], proxiedSamples = []] = await measureTtfbAlternating([direct, proxied], count);
  const scenario = ttfbSummary("proxy POST /api/chat, time to first byte", proxiedSamples);
  const baseline = ttfbSummary("agent stand-in directly, time to first byte", directSamples);
  ctx.log(`  direct p50 ${baseline.p50.toFixed(2)} ms, proxied p50 ${scenario.p50.toFixed(2)} ms`);
  results.push(
    judge({
      name: "proxy-chat-ttfb",
      database: null,
      target: CHAT,
      scenario,
      baseline,
      rssMb: await proxy.rssMb(),
      note: "req/s is sequential (one request at a time)",
    }),
  );
}

/** Settings both proxies share: the CoinGecko stand-in, and no per-IP limit in the way. */
function proxyEnv(coingecko: ServerChild): Record<string, string> {
  return {
    COINGECKO_BASE_URL: `${coingecko.url}/api/v3`,
    COINGECKO_API_KEY: "bench-coingecko-key",
    // The start-up /ping is not what is measured (the stand-in answers only /simple/price).
    COINGECKO_STARTUP_CHECK: "off",
    // The load comes from one address; the per-IP limit must not be what is measured.
    RATE_LIMIT_PER_MINUTE: "1000000000",
  };
}

/** The dashboard proxy: cached prices against bare h3 (also with Redis), chat TTFB against the agent directly. */
export const proxyScenarios: ScenarioModule = {
  names: ["proxy-prices", "proxy-redis-prices", "proxy-chat-ttfb"],
  async run(ctx) {
    const results: ScenarioResult[] = [];
    const coingecko = await startBenchServer("coingecko", ctx.children);
    const agent = await startBenchServer("agent", ctx.children);
    let proxy: ServerChild | undefined;
    try {
      proxy = await startDashboardProxy(ctx.children, {
        ...proxyEnv(coingecko),
        AGENT_URL: `${agent.url}/chat`,
        AGENT_API_KEY: "bench-agent-key",
        // No sessions in the bench: chat's own relay is what is measured.
        CHAT_ACCESS: "public",
      });
      const started = proxy;
      const cached = { name: "proxy-prices", label: "proxy prices (cached)", target: PRICES, proxy: started };
      const steps = [
        { name: "proxy-prices", target: PRICES, run: () => runPrices(ctx, cached, results) },
        {
          name: "proxy-redis-prices",
          target: PRICES_REDIS,
          run: () => runPricesRedis(ctx, coingecko, results),
        },
        { name: "proxy-chat-ttfb", target: CHAT, run: () => runChat(ctx, started, agent, results) },
      ];
      for (const step of steps) {
        if (!ctx.selected(step.name)) continue;
        try {
          await step.run();
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          ctx.log(`${step.name} failed: ${message}`);
          results.push(skipped(step.name, null, step.target, message, "failed"));
        }
      }
    } finally {
      await Promise.all([proxy?.stop(), coingecko.stop(), agent.stop()]);
    }
    return results;
  },
};
