import type { ServerChild } from "../lib/child.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { startBenchServer, startDashboardProxy } from "../lib/servers.js";
import { percentile } from "../lib/stats.js";
import { measureTtfbAlternating } from "../lib/ttfb.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

const PRICES: Target = { kind: "ratio", min: 0.7 };
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

async function runPrices(ctx: ScenarioContext, proxy: ServerChild, results: ScenarioResult[]): Promise<void> {
  const baseline = await startBenchServer("bare-h3", ctx.children);
  try {
    // One request fills the cache; every measured request is then a hit.
    const first = await fetch(proxy.url + PRICES_PATH);
    await first.arrayBuffer();
    if (first.status !== 200) throw new Error(`proxy answered ${first.status} to the price request`);
    ctx.log("proxy-prices: cached /api/prices/simple");
    const rounds = await ctx.alternateRun([
      { key: "bare h3 constant JSON", spec: { url: baseline.url + PRICES_PATH } },
      { key: "proxy prices (cached)", spec: { url: proxy.url + PRICES_PATH } },
    ]);
    results.push(
      judge({
        name: "proxy-prices",
        database: null,
        target: PRICES,
        scenario: summarize(
          "proxy GET /api/prices/simple (cache hit)",
          rounds.get("proxy prices (cached)") ?? [],
        ),
        baseline: summarize("bare h3 constant JSON", rounds.get("bare h3 constant JSON") ?? []),
        rssMb: await proxy.rssMb(),
      }),
    );
  } finally {
    await baseline.stop();
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

/** The dashboard proxy: cached prices against bare h3, chat TTFB against the agent directly. */
export const proxyScenarios: ScenarioModule = {
  names: ["proxy-prices", "proxy-chat-ttfb"],
  async run(ctx) {
    const results: ScenarioResult[] = [];
    const coingecko = await startBenchServer("coingecko", ctx.children);
    const agent = await startBenchServer("agent", ctx.children);
    let proxy: ServerChild | undefined;
    try {
      proxy = await startDashboardProxy(ctx.children, {
        COINGECKO_BASE_URL: `${coingecko.url}/api/v3`,
        COINGECKO_API_KEY: "bench-coingecko-key",
        AGENT_URL: `${agent.url}/chat`,
        AGENT_API_KEY: "bench-agent-key",
        // The load comes from one address; the per-IP limit must not be what is measured.
        RATE_LIMIT_PER_MINUTE: "1000000000",
        // No sessions in the bench: chat's own relay is what is measured.
        CHAT_ACCESS: "public",
      });
      const started = proxy;
      const steps = [
        { name: "proxy-prices", target: PRICES, run: () => runPrices(ctx, started, results) },
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
