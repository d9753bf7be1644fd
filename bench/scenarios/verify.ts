import type { ScenarioModule } from "./types.js";

/** Placeholder until keys.verify lands. */
export const verifyScenarios: ScenarioModule = {
  names: ["verify-rest", "verify-trpc", "verify-recording"],
  run: async () => [],
};
