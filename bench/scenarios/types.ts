import type { Contestant } from "../lib/alternate.js";
import type { DatabaseFactory } from "../lib/databases.js";
import type { Measurement } from "../lib/load.js";
import type { BenchOptions } from "../lib/options.js";
import type { ScenarioResult } from "../lib/result.js";
import type { ChildSettings } from "../lib/servers.js";

/** What every scenario module gets from the runner. */
export interface ScenarioContext {
  options: BenchOptions;
  children: ChildSettings;
  databases: DatabaseFactory;
  /** Measures the contestants alternately for the configured rounds (see `measureAlternating`). */
  alternateRun(contestants: readonly Contestant[]): Promise<Map<string, Measurement[]>>;
  log(line: string): void;
  /** Whether `--only` selected this scenario name. */
  selected(name: string): boolean;
}

/** A family of scenarios that share servers and setup. */
export interface ScenarioModule {
  /** The scenario names it produces, for `--only` and for skipping the whole module. */
  names: readonly string[];
  run(ctx: ScenarioContext): Promise<ScenarioResult[]>;
}
