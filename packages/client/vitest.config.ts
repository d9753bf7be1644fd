import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): the packed tarball installed into a project
 * outside the workspace, type-checked and run (build, pack, install, tsc: tens of seconds).
 * `pnpm test` keeps the in-workspace client tests.
 */
export const slowTests = ["test/consumer.test.ts"];

/** Settings both tiers share. */
export const shared = {
  name: "client",
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // @keyport/errors from its source: tests need no build of it (the started servers run its dist).
  alias: { "@keyport/errors": fileURLToPath(new URL("../errors/src/index.ts", import.meta.url)) },
  // expect.poll stands in for sleeps and polling loops; the machine is shared, so the bound is generous.
  expect: { poll: { timeout: 10_000, interval: 10 } },
  // The server's migrated PGlite folder, which startKeyportServer copies instead of running initdb.
  globalSetup: ["../server/test/support/pglite-template.ts"],
};

export default defineConfig({
  test: {
    ...shared,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...slowTests],
    // The type tests (test/*.test-d.ts) are checked by `pnpm typecheck` (tsc -p tsconfig.json includes
    // them), where a failed expectTypeOf is a compile error; vitest would only repeat that work.
  },
});
