import { defineConfig } from "vitest/config";

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
