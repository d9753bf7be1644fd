import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { measureAlternating } from "./lib/alternate.js";
import { createDatabaseFactory } from "./lib/databases.js";
import { buildAndMeasureFirstLoad, describeFirstLoad, type FirstLoad } from "./lib/first-load.js";
import { describeMachine } from "./lib/machine.js";
import { isSelected, parseOptions } from "./lib/options.js";
import type { ScenarioResult } from "./lib/result.js";
import { renderTable } from "./lib/table.js";
import { keysScenarios } from "./scenarios/keys.js";
import { proxyScenarios } from "./scenarios/proxy.js";
import { topUpScenarios } from "./scenarios/top-up.js";
import type { ScenarioContext, ScenarioModule } from "./scenarios/types.js";
import { usageScenarios } from "./scenarios/usage.js";
import { verifyScenarios } from "./scenarios/verify.js";
import { verifyLimitsScenarios } from "./scenarios/verify-limits.js";
import { verifySdkScenarios } from "./scenarios/verify-sdk.js";
import { webhookScenarios } from "./scenarios/webhooks.js";

// `pnpm bench [-- --quick] [-- --only name]`: starts every server it needs as a child process on
// 127.0.0.1, measures each scenario alternately with its baseline, prints a Markdown table and
// writes bench/results.json.

const MODULES: readonly ScenarioModule[] = [
  verifyScenarios,
  verifyLimitsScenarios,
  verifySdkScenarios,
  keysScenarios,
  usageScenarios,
  proxyScenarios,
  topUpScenarios,
  webhookScenarios,
];

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const started = Date.now();
  const log = (line: string) => {
    const elapsed = `${Math.round((Date.now() - started) / 1000)}s`.padStart(5);
    process.stderr.write(`${elapsed} ${line}\n`);
  };
  const databases = createDatabaseFactory(options.postgresUrl);
  const ctx: ScenarioContext = {
    options,
    children: { cpuProfDir: options.cpuProfDir, logLevel: options.logLevel, tree: options.tree },
    databases,
    log,
    selected: (name) => isSelected(options, name),
    alternateRun: (contestants) =>
      measureAlternating(contestants, {
        rounds: options.rounds,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        connections: options.connections,
        log,
      }),
  };

  const machine = describeMachine();
  log(
    `bench: ${options.rounds} round(s) x ${options.durationSeconds} s (+${options.warmupSeconds} s warmup) at ${options.connections} connections on ${options.databases.join(", ")}`,
  );
  const results: ScenarioResult[] = [];
  try {
    for (const module of MODULES) {
      if (!module.names.some((name) => ctx.selected(name))) continue;
      results.push(...(await module.run(ctx)));
    }
  } finally {
    await databases.dropAll();
  }

  // The dashboard's first-load budget (docs/dashboard.md): a build, not a load test, so it sits below the table.
  let firstLoad: FirstLoad | null = null;
  if (ctx.selected("dashboard-first-load")) {
    log("bench: building the dashboard to measure its first load");
    firstLoad = await buildAndMeasureFirstLoad(options.tree ?? fileURLToPath(new URL("..", import.meta.url)));
  }

  const table = renderTable(results, machine);
  const firstLoadLine = firstLoad === null ? "" : `\n\n${describeFirstLoad(firstLoad)}`;
  process.stdout.write(
    `\n${table}${firstLoadLine}\n\nTook ${Math.round((Date.now() - started) / 1000)} s.\n`,
  );
  if (options.resultsPath !== undefined) {
    const document = {
      machine,
      settings: {
        rounds: options.rounds,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        connections: options.connections,
        ttfbRequests: options.ttfbRequests,
        databases: options.databases,
        logLevel: options.logLevel,
        tree: options.tree ?? null,
        quick: options.quick,
      },
      durationSeconds: Math.round((Date.now() - started) / 1000),
      results,
      dashboardFirstLoad: firstLoad,
    };
    await mkdir(dirname(options.resultsPath), { recursive: true });
    await writeFile(options.resultsPath, `${JSON.stringify(document, null, 2)}\n`);
    log(`bench: wrote ${options.resultsPath}`);
  }
  return results.some((result) => result.status === "failed") ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
