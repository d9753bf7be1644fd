import { defineConfig } from "vitest/config";
import { settleTestServices } from "./packages/test-support/src/services.js";

// The one place a run decides which PostgreSQL and Redis the suites use (docs/configuration.md, "Tests and benchmarks"):
// TEST_DATABASE_URL / TEST_REDIS_URL when set, else the local services when they answer. The answer goes
// back into the variables, which the test files and the processes they start read; a missing service is
// one printed line, not a silent skip. (Imported by path: vitest's config loader leaves a package import
// to Node, which runs no TypeScript.)
await settleTestServices();

// `pnpm test`: one `vitest run` at the root runs every package's fast tier (each package's vitest.config.ts
// leaves its process, load and fault tests to vitest.slow.config.ts). Under CI a JSON report is written too,
// so .ci/run can print a plain "N passed, N failed" line.
export default defineConfig({
  test: {
    // Each package's vitest.config.ts is its fast tier (other configs beside it are other tiers).
    projects: ["packages/*"],
    // Two workers on a two-core machine: most of a fast file's time is one CPU-bound PGlite start
    // (its initdb in WASM), so a second worker nearly halves the run. Vitest's default is cores - 1.
    maxWorkers: 2,
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".vitest-results.json" },
  },
});
