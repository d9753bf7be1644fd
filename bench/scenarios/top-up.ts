// The chain and the payment are the tests' own (test-support has the token, anvil and x402's client);
// imported by path, as the benchmarks are no workspace package.
import { startPaymentsChain } from "../../packages/test-support/src/payments-chain.js";
import { signPaymentForHeader } from "../../packages/test-support/src/x402-payment.js";
import type { ServerChild } from "../lib/child.js";
import { createKey, signIn } from "../lib/keyport.js";
import type { Measurement } from "../lib/load.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { startKeyport } from "../lib/servers.js";
import { percentile } from "../lib/stats.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

// A paid top-up's latency on a local chain (docs/payments.md): reported, no target. Each top-up is
// verified, settled in Keyport's process (anvil mines at once), confirmed (1 block) and credited.
const NAME = "top-up";
const TARGET: Target = { kind: "report", label: "reported (no target)" };

async function topUp(url: string, key: string, payment?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": key };
  if (payment !== undefined) headers["payment-signature"] = payment;
  return fetch(url, { method: "POST", headers, body: JSON.stringify({ amount: "1" }) });
}

/** N sequential paid top-ups of one key over REST, each timed from the paid request to its answer. */
export const topUpScenarios: ScenarioModule = {
  names: [NAME],
  async run(ctx: ScenarioContext): Promise<ScenarioResult[]> {
    const { databases } = ctx.options;
    const kind = databases.includes("postgres") ? "postgres" : (databases[0] ?? "pglite");
    const count = ctx.options.quick ? 5 : 30;
    const children: ServerChild[] = [];
    const chain = await startPaymentsChain();
    try {
      const keyport = await startKeyport(
        `server-top-up-${kind}`,
        await ctx.databases.create(kind),
        ctx.children,
        chain.env,
      );
      children.push(keyport);
      const session = await signIn(keyport.url);
      const { id, secret } = await createKey(keyport.url, session, "top-up bench", {
        credits: { remaining: 1 },
      });
      const url = `${keyport.url}/api-keys/${id}/top-up`;
      const payer = await chain.newPayer(count + 1);
      ctx.log(`${NAME} [${kind}]: ${count} sequential paid top-ups over REST, settled in-process on anvil`);

      const latencies: number[] = [];
      let failed = 0;
      const began = performance.now();
      for (let i = 0; i < count; i++) {
        const unpaid = await topUp(url, secret);
        const header = unpaid.headers.get("payment-required");
        await unpaid.text();
        if (unpaid.status !== 402 || header === null) throw new Error(`the quote answered ${unpaid.status}`);
        const payment = await signPaymentForHeader(payer, header);
        const started = performance.now();
        const paid = await topUp(url, secret, payment.header);
        await paid.text();
        latencies.push(performance.now() - started);
        if (paid.status !== 200) failed += 1;
      }
      const seconds = (performance.now() - began) / 1000;
      const measured: Measurement = {
        rps: count / seconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        ok: count - failed,
        non2xx: failed,
        errors: 0,
      };
      const p95 = percentile(latencies, 95);
      return [
        judge({
          name: NAME,
          database: kind,
          target: TARGET,
          scenario: summarize("POST /api-keys/:id/top-up, paid, in-process settlement", [measured]),
          baseline: null,
          rssMb: await keyport.rssMb(),
          note: `${count} sequential top-ups: p50 ${measured.p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
        }),
      ];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.log(`${NAME} [${kind}] failed: ${message}`);
      return [skipped(NAME, kind, TARGET, message, "failed")];
    } finally {
      await Promise.all(children.map((child) => child.stop()));
      await chain.close();
    }
  },
};
