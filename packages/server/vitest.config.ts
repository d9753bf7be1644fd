import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): child processes, load, faults, restarts and
 * shutdown under load. They take minutes; `pnpm test` leaves them out and keeps a fast test of each
 * behaviour (in-process shutdown, verification, persistence; exact rate limits under 2,000 concurrent
 * requests in src/ratelimit, exact usage counts in src/usage and test/usage.test.ts).
 */
export const slowTests = [
  "test/reliability/**/*.test.ts",
  "test/processes.test.ts",
  "test/restart.test.ts",
  "test/shutdown.test.ts",
  "test/start.test.ts",
  "test/database-outage.test.ts",
  "test/concurrency.test.ts",
  "test/credits-concurrency.test.ts",
  "test/slow-clients.test.ts",
  // ganache and solc-js: an in-process EVM and a compile take seconds to load.
  "test/contract-wallet.test.ts",
];

/** Settings both tiers share. */
export const shared = {
  name: "server",
  // Bounds, not expectations: a test database's start can take tens of seconds on a busy machine.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // @keyport/errors and @keyport/node-edge from their source: tests need no build of them (the started servers run their dist).
  alias: {
    "@keyport/errors": fileURLToPath(new URL("../errors/src/index.ts", import.meta.url)),
    "@keyport/node-edge": fileURLToPath(new URL("../node-edge/src/index.ts", import.meta.url)),
  },
  // expect.poll stands in for sleeps and polling loops; the machine is shared, so the bound is generous.
  expect: { poll: { timeout: 10_000, interval: 10 } },
  // One migrated PGlite folder per run, copied by each test database instead of a new initdb each.
  globalSetup: ["test/support/pglite-template.ts"],
};

export default defineConfig({
  test: {
    ...shared,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...slowTests],
    // Files share a worker's module graph: importing the server (tRPC, drizzle, viem, zod) once per worker
    // instead of once per file halves the tier's CPU. Tests own no module state (no mocks; each starts its
    // own app and database), so nothing carries over.
    isolate: false,
  },
});
