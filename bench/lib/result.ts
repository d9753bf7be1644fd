import type { Measurement } from "./load.js";
import { median } from "./stats.js";

/** What a scenario must achieve. */
export type Target =
  /** Scenario req/s over baseline req/s, optionally with a p99 ceiling (ms). */
  | { kind: "ratio"; min: number; maxP99Ms?: number }
  /** Absolute median latency. */
  | { kind: "p50"; maxMs: number }
  /** Scenario p50 minus baseline p50 (time to first byte). */
  | { kind: "overhead"; maxMs: number }
  /** Measured and shown with its ratio, not judged (e.g. a variant reported beside a judged scenario). */
  | { kind: "report"; label: string };

/**
 * Servers must stay under this resident set size after every scenario: 200 MB on PostgreSQL (and
 * for the proxy), 250 MB on the embedded database, whose WebAssembly PostgreSQL lives in the process.
 */
export function rssLimitMb(database: ScenarioResult["database"]): number {
  return database === "pglite" ? 250 : 200;
}

/** Medians over the measured rounds of one contestant. */
export interface Summary {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  rounds: Array<{ rps: number; p50: number; p99: number }>;
  /** Non-2xx answers and socket errors over all rounds (should be 0). */
  failures: number;
}

/** One line of the table and of results.json. */
export interface ScenarioResult {
  name: string;
  database: "pglite" | "postgres" | null;
  status: "measured" | "skipped" | "failed";
  note: string | null;
  scenario: Summary | null;
  baseline: Summary | null;
  /** scenario.rps / baseline.rps, or for `overhead` targets scenario.p50 - baseline.p50 (ms). */
  ratio: number | null;
  overheadMs: number | null;
  target: string;
  pass: boolean | null;
  rssMb: number | null;
  /** The limit `rssPass` judged `rssMb` against (see `rssLimitMb`). */
  rssLimitMb: number;
  rssPass: boolean | null;
}

/** Median rps/p50/p99 over rounds. */
export function summarize(name: string, rounds: readonly Measurement[]): Summary {
  return {
    name,
    rps: median(rounds.map((round) => round.rps)),
    p50: median(rounds.map((round) => round.p50)),
    p99: median(rounds.map((round) => round.p99)),
    rounds: rounds.map(({ rps, p50, p99 }) => ({ rps, p50, p99 })),
    failures: rounds.reduce((sum, round) => sum + round.non2xx + round.errors, 0),
  };
}

/** Describes a target for the table, e.g. `ratio >= 0.5, p99 < 10 ms`. */
export function describeTarget(target: Target): string {
  switch (target.kind) {
    case "ratio":
      return `ratio >= ${target.min}${target.maxP99Ms === undefined ? "" : `, p99 < ${target.maxP99Ms} ms`}`;
    case "p50":
      return `p50 < ${target.maxMs} ms`;
    case "overhead":
      return `overhead p50 < ${target.maxMs} ms`;
    case "report":
      return target.label;
  }
}

/** Builds the result of a measured scenario and judges it against its target and the RSS limit. */
export function judge(options: {
  name: string;
  database: ScenarioResult["database"];
  target: Target;
  scenario: Summary;
  baseline: Summary | null;
  rssMb: number | null;
  note?: string;
}): ScenarioResult {
  const { target, scenario, baseline } = options;
  const ratio = baseline && baseline.rps > 0 ? scenario.rps / baseline.rps : null;
  const overheadMs = target.kind === "overhead" && baseline ? scenario.p50 - baseline.p50 : null;
  let pass: boolean | null;
  switch (target.kind) {
    case "ratio":
      pass =
        ratio !== null &&
        ratio >= target.min &&
        (target.maxP99Ms === undefined || scenario.p99 < target.maxP99Ms);
      break;
    case "p50":
      pass = scenario.p50 < target.maxMs;
      break;
    case "overhead":
      pass = overheadMs !== null && overheadMs < target.maxMs;
      break;
    case "report":
      pass = null;
      break;
  }
  // Failed requests, or none at all, make the numbers meaningless, whatever they say.
  const failed = scenario.failures > 0 || (baseline?.failures ?? 0) > 0;
  const empty = !(scenario.rps > 0) || (baseline !== null && !(baseline.rps > 0));
  if (failed || empty) pass = false;
  const failureNote = failed
    ? `${scenario.failures} failed requests (baseline ${baseline?.failures ?? 0})`
    : empty
      ? "no request completed within the measurement"
      : null;
  return {
    name: options.name,
    database: options.database,
    status: "measured",
    note:
      [options.note, failureNote].filter((part) => part !== undefined && part !== null).join("; ") || null,
    scenario,
    baseline,
    ratio: target.kind === "overhead" ? null : ratio,
    overheadMs,
    target: describeTarget(target),
    pass,
    rssMb: options.rssMb,
    rssLimitMb: rssLimitMb(options.database),
    rssPass: options.rssMb === null ? null : options.rssMb < rssLimitMb(options.database),
  };
}

/** A scenario that could not run, e.g. its route is not built yet. */
export function skipped(
  name: string,
  database: ScenarioResult["database"],
  target: Target,
  note: string,
  status: "skipped" | "failed" = "skipped",
): ScenarioResult {
  return {
    name,
    database,
    status,
    note,
    scenario: null,
    baseline: null,
    ratio: null,
    overheadMs: null,
    target: describeTarget(target),
    pass: null,
    rssMb: null,
    rssLimitMb: rssLimitMb(database),
    rssPass: null,
  };
}
