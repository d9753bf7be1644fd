import { defineConfig } from "vitest/config";
import { settleTestServices } from "./packages/test-support/src/services.js";

// The same PostgreSQL and Redis as `pnpm test` (see vitest.config.ts).
await settleTestServices();

// `pnpm test:slow`: the slow tier of every package (child processes, load, faults, the packed client)
// and the bench smoke test. Its CI report is separate so .ci/run can sum both tiers.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.slow.config.ts", "bench"],
    // One file at a time: these measure load, timing and processes, which a second worker would skew.
    maxWorkers: 1,
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".vitest-results-slow.json" },
  },
});
