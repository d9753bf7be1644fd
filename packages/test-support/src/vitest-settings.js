// Plain JavaScript (typed by vitest-settings.d.ts): the packages' vitest.config.ts import it by package
// name, and vitest's config loader leaves a package from node_modules to Node, which runs no TypeScript.
import { fileURLToPath } from "node:url";

/**
 * The vitest settings both tiers of a package share when its tests start the real Keyport server: its
 * name, generous bounds for a shared machine, @keyport/errors from source and the run's PGlite template.
 * @example export const shared = serverTestSettings("client", { testTimeout: 60_000, hookTimeout: 120_000 });
 */
export function serverTestSettings(name, bounds) {
  return {
    name,
    // Bounds, not expectations: a test database's start can take tens of seconds on a busy machine.
    ...bounds,
    // @keyport/errors and @keyport/node-edge from their source: tests need no build of them (started server
    // processes run their dist).
    alias: {
      "@keyport/errors": fileURLToPath(new URL("../../errors/src/index.ts", import.meta.url)),
      "@keyport/node-edge": fileURLToPath(new URL("../../node-edge/src/index.ts", import.meta.url)),
    },
    // expect.poll stands in for sleeps and polling loops; the machine is shared, so the bound is generous.
    expect: { poll: { timeout: 10_000, interval: 10 } },
    // One migrated PGlite folder per run, which copyPgliteTemplate copies instead of running initdb.
    globalSetup: ["@keyport/test-support/pglite-template"],
  };
}
