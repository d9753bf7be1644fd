import { defineConfig } from "vitest/config";
import { shared, slowTests } from "./vitest.config.js";

// The slow tier only: the files vitest.config.ts leaves out of `pnpm test`.
export default defineConfig({
  test: { ...shared, include: slowTests },
});
