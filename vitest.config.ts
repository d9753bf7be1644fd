import { defineConfig } from "vitest/config";

// One `vitest run` at the root runs every package's suite, so the README's test line is one command.
// Under CI a JSON report is written too, so .ci/run can print a plain "N passed, N failed" line.
export default defineConfig({
  test: {
    projects: ["packages/*", "bench"],
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".vitest-results.json" },
  },
});
