import type { ScenarioModule } from "./types.js";

/** Placeholder until usage.get lands. */
export const usageScenarios: ScenarioModule = { names: ["usage"], run: async () => [] };
