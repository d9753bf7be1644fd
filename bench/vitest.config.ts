import { defineConfig } from "vitest/config";

// Slow tier only (the root vitest.slow.config.ts lists this project; `pnpm test` does not).
export default defineConfig({
  test: {
    name: "bench",
    include: ["bench.test.ts"],
    // One short bench run starts five child processes; the machine may be busy.
    testTimeout: 120_000,
  },
});
