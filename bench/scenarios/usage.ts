import type { ServerChild } from "../lib/child.js";
import type { BenchDatabase } from "../lib/databases.js";
import { createKey, documentsRoute, signIn } from "../lib/keyport.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { seedUsage, USAGE_TOTAL } from "../lib/seed-usage.js";
import { startKeyport } from "../lib/servers.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

const USAGE: Target = { kind: "p50", maxMs: 25 };
const KEYS = 50;
// One dashboard asking at a time: the target is the cost of the query over a big history,
// not queueing behind 49 other requests.
const CONNECTIONS = 1;

async function runOn(ctx: ScenarioContext, database: BenchDatabase): Promise<ScenarioResult> {
  const name = `server-usage-${database.kind}`;
  let server: ServerChild | undefined = await startKeyport(name, database, ctx.children);
  try {
    if (!(await documentsRoute(server.url, "get", "/api-keys/{wallet}/usage"))) {
      return skipped(
        "usage",
        database.kind,
        USAGE,
        "skipped: not implemented (no GET /api-keys/:wallet/usage)",
      );
    }
    const session = await signIn(server.url);
    for (let i = 0; i < KEYS; i++) await createKey(server.url, session, `usage key ${i}`);
    if (database.kind === "pglite") {
      // PGlite allows one process: seed between two runs of the server.
      await server.stop();
      server = undefined;
    }
    ctx.log(
      `usage [${database.kind}]: seeding ${USAGE_TOTAL.toLocaleString("en")} verifications as hourly rollups`,
    );
    const total = await seedUsage(database, session.wallet);
    if (total !== USAGE_TOTAL) throw new Error(`seeded ${total} verifications, expected ${USAGE_TOTAL}`);
    server ??= await startKeyport(name, database, ctx.children);

    const to = new Date();
    const from = new Date(to.getTime() - 90 * 86_400_000);
    const url = `${server.url}/api-keys/${session.wallet}/usage?from=${from.toISOString()}&to=${to.toISOString()}&granularity=day`;
    const headers = { authorization: `Bearer ${session.token}` };
    const check = await fetch(url, { headers });
    const text = await check.text();
    if (check.status !== 200) throw new Error(`usage answered ${check.status}`);
    const note = text.includes(`"requests":${USAGE_TOTAL}`)
      ? "90 days by day, 50 keys, 1 connection"
      : `90 days by day, 50 keys, 1 connection; totals did not show ${USAGE_TOTAL} requests`;

    ctx.log(`usage [${database.kind}]: 90 days by day, ${KEYS} keys`);
    const rounds = await ctx.alternateRun([
      { key: "usage", spec: { url, headers }, connections: CONNECTIONS },
    ]);
    return judge({
      name: "usage",
      database: database.kind,
      target: USAGE,
      scenario: summarize("keyport REST GET /api-keys/:wallet/usage", rounds.get("usage") ?? []),
      baseline: null,
      rssMb: await server.rssMb(),
      note,
    });
  } finally {
    await server?.stop();
  }
}

/** Usage of a wallet with 5,000,000 recorded verifications over 90 days, on each database. */
export const usageScenarios: ScenarioModule = {
  names: ["usage"],
  async run(ctx) {
    const results: ScenarioResult[] = [];
    for (const kind of ctx.options.databases) {
      try {
        results.push(await runOn(ctx, await ctx.databases.create(kind)));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        ctx.log(`usage [${kind}] failed: ${message}`);
        results.push(skipped("usage", kind, USAGE, message, "failed"));
      }
    }
    return results;
  },
};
