import { serverTestSettings } from "@keyport/test-support/vitest-settings";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): generated bad input and misbehaving upstreams,
 * hundreds of requests each. `pnpm test` leaves them out; prices, chat and secrets tests cover each
 * behaviour once.
 */
export const slowTests = ["test/reliability/**/*.test.ts"];

/** Settings both tiers share. */
export const shared = serverTestSettings("dashboard-proxy", { testTimeout: 30_000, hookTimeout: 60_000 });

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
