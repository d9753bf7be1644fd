import { serverTestSettings } from "@keyport/test-support/vitest-settings";
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
  // Two child processes that churn the heap for seconds each.
  "test/heap-growth.test.ts",
  // Three child processes that open the embedded database and query it for seconds each.
  "test/pglite-resident.test.ts",
  // The root launcher: a full build (the dashboard too) before both servers start; with a local chain too.
  "test/launcher.test.ts",
  "test/launcher-payments.test.ts",
  "test/database-outage.test.ts",
  "test/concurrency.test.ts",
  "test/credits-concurrency.test.ts",
  "test/slow-clients.test.ts",
  // Migration 0005 over keys made before it: a PGlite from nothing (initdb), not from the migrated template.
  "test/migration-0005.test.ts",
  // The same for the migration that creates the wallets table (the operator's wallet list).
  "test/migration-wallets.test.ts",
  // The same for the named limits: each single limit becomes the one named default.
  "test/migration-0022.test.ts",
  // The operator-token command: child processes (tsx) over an embedded database of their own.
  "test/operator-token-cli.test.ts",
  // 100,000 payments exported from a server process whose heap is read while the file streams.
  "test/operator-payments-export.test.ts",
  // anvil and solc-js: a node process to start and a compile that takes seconds.
  "test/contract-wallet.test.ts",
  // anvil, a token deployed on it, and settlements that wait for blocks.
  "test/top-up.test.ts",
  // anvil behind a JSON-RPC proxy that fails chosen methods.
  "test/top-up-rpc-faults.test.ts",
  // anvil, a token, and a facilitator that settles anything: only Keyport's own checks refuse.
  "test/top-up-own-checks.test.ts",
  // anvil with thousands of blocks behind a node that caps log ranges; the reconciler's 15 s passes.
  "test/top-up-recovery.test.ts",
  // Two instances on one database (and Redis), anvil, and a node that answers one of them late.
  "test/top-up-two-instances.test.ts",
  // Child processes killed mid-settlement and started again.
  "test/top-up-restart.test.ts",
  // 200 keys made and 1,200 verifications around one leak report of 1,000 tokens, on two instances.
  "test/leaks-batch.test.ts",
  // The REST walk-through run in bash as written: its sign-in script is two tsx processes.
  "test/docs-walkthrough.test.ts",
  // Hostile text in every string field of every procedure, generated from the router: hundreds of calls.
  "test/stored-text-property.test.ts",
  // The real entry point in a child process, with a rejection and a throw injected.
  "test/process-faults.test.ts",
  // The leak-rules command: a tsx process (src/leaks/detection-rules.test.ts checks its rules in-process).
  "test/leak-rules-cli.test.ts",
  // The tRPC verify fast path while PostgreSQL is unreachable: a database of its own, closed mid-test.
  "test/trpc-verify-parity-outage.test.ts",
  // Two instances with their own PostgreSQL connections, a suspension timed across them, and a restart.
  "test/wallet-suspension-two-instances.test.ts",
  // Two instances on one database: a plan change made on one reaches the other's key cache.
  "test/plan-two-instances.test.ts",
];

/**
 * Property and concurrency tests in both tiers: a few generated runs or a few dozen concurrent requests in
 * `pnpm test` (each behaviour still checked there) and the long run in `pnpm test:slow`, which sets
 * KEYPORT_TEST_TIER=slow (test/support/tier.ts).
 */
export const longRuns = [
  "test/trpc-verify-parity.test.ts",
  "test/credits-model.test.ts",
  "test/active-key-bound.test.ts",
  "test/key-policies.test.ts",
  "test/wallet-limits.test.ts",
  "test/key-create-cap.test.ts",
  "test/session-memo.test.ts",
  "test/keys-list-search.test.ts",
];

/** Settings both tiers share. */
export const shared = serverTestSettings("server", { testTimeout: 60_000, hookTimeout: 60_000 });

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
