import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "bench",
    include: ["bench.test.ts"],
    // One short bench run starts five child processes; the machine may be busy.
    testTimeout: 120_000,
  },
});
