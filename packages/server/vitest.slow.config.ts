import { defineConfig } from "vitest/config";
import { longRuns, shared, slowTests } from "./vitest.config.js";

// The slow tier: the files vitest.config.ts leaves out of `pnpm test`, and the long runs of the property
// tests both tiers share (`longRuns`). They start child processes (tsx compiling the server each time), so
// a busy machine needs the longer bound.
export default defineConfig({
  test: {
    ...shared,
    include: [...slowTests, ...longRuns],
    env: { KEYPORT_TEST_TIER: "slow" },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
