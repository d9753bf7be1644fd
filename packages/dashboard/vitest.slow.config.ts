import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The dashboard's slow tier (`pnpm test:slow`): the end-to-end tests in headless Chromium against the real
 * server and proxy (e2e/). The fast tier (vitest.config.ts) keeps the component tests under src/.
 */
export default defineConfig({
  test: {
    name: "dashboard-e2e",
    include: ["e2e/**/*.e2e.test.ts"],
    environment: "node",
    // Builds the dashboard once into a temporary folder that every file's proxy serves.
    globalSetup: ["e2e/support/build-dashboard.ts"],
    // Bounds, not expectations: a browser, an in-memory PGlite and a build share a busy machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // @keyport/errors and @keyport/node-edge from their source, as in the server's and the proxy's tests: no build needed first.
    alias: {
      "@keyport/errors": fileURLToPath(new URL("../errors/src/index.ts", import.meta.url)),
      "@keyport/node-edge": fileURLToPath(new URL("../node-edge/src/index.ts", import.meta.url)),
    },
    expect: { poll: { timeout: 15_000, interval: 50 } },
  },
});
