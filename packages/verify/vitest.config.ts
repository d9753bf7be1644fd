import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): the packed tarball installed into projects
 * outside the workspace (the package alone, and with each framework alone), type-checked and run.
 * `pnpm test` keeps the tests against the real server and the type tests.
 */
export const slowTests = ["test/consumer.test.ts"];

/** Settings both tiers share. */
export const shared = {
  name: "verify",
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // @keyport/errors (the package bundles it) and @keyport/node-edge (the servers the tests start import it) from their source: no build needed first.
  alias: {
    "@keyport/errors": fileURLToPath(new URL("../errors/src/index.ts", import.meta.url)),
    "@keyport/node-edge": fileURLToPath(new URL("../node-edge/src/index.ts", import.meta.url)),
  },
  // expect.poll stands in for sleeps and polling loops; the machine is shared, so the bound is generous.
  expect: { poll: { timeout: 10_000, interval: 10 } },
  // The server's migrated PGlite folder, which startKeyport copies instead of running initdb.
  globalSetup: ["../server/test/support/pglite-template.ts"],
};

export default defineConfig({
  test: {
    ...shared,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...slowTests],
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
      // Type errors in the server's sources are its own to report; these tests judge the package's types.
      ignoreSourceErrors: true,
    },
  },
});
