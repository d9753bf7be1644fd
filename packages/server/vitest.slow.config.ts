import { defineConfig } from "vitest/config";
import { shared, slowTests } from "./vitest.config.js";

// The slow tier only: the files vitest.config.ts leaves out of `pnpm test`. They start child processes
// (tsx compiling the server each time), so a busy machine needs the longer bound.
export default defineConfig({
  test: { ...shared, include: slowTests, testTimeout: 120_000, hookTimeout: 120_000 },
});
