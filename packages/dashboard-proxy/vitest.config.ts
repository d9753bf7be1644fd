import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): generated bad input and misbehaving upstreams,
 * hundreds of requests each. `pnpm test` leaves them out; prices, chat and secrets tests cover each
 * behaviour once.
 */
export const slowTests = ["test/reliability/**/*.test.ts"];

/** Settings both tiers share. */
export const shared = {
  name: "dashboard-proxy",
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // @keyport/errors and @keyport/node-edge from their source: tests need no build of them (the started servers run their dist).
  alias: {
    "@keyport/errors": fileURLToPath(new URL("../errors/src/index.ts", import.meta.url)),
    "@keyport/node-edge": fileURLToPath(new URL("../node-edge/src/index.ts", import.meta.url)),
  },
  // expect.poll stands in for sleeps and polling loops; the machine is shared, so the bound is generous.
  expect: { poll: { timeout: 10_000, interval: 10 } },
  // The server's migrated PGlite folder: the session and /trpc tests run the real Keyport server on a copy.
  globalSetup: ["../server/test/support/pglite-template.ts"],
};

export default defineConfig({
  test: {
    ...shared,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...slowTests],
    // Files share a worker's module graph (the proxy, h3, zod imported once per worker, not per file);
    // each test starts its own app, so no state carries over.
    isolate: false,
  },
});
