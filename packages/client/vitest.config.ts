import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): the packed tarball installed into a project
 * outside the workspace, type-checked and run (build, pack, install, tsc: tens of seconds).
 * `pnpm test` keeps the in-workspace client tests and the type tests.
 */
export const slowTests = ["test/consumer.test.ts"];

/** Settings both tiers share. */
export const shared = {
  name: "client",
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // @keyport/errors and @keyport/node-edge from their source: tests need no build of them (the started servers run their dist).
  alias: {
    "@keyport/errors": fileURLToPath(new URL("../errors/src/index.ts", import.meta.url)),
    "@keyport/node-edge": fileURLToPath(new URL("../node-edge/src/index.ts", import.meta.url)),
  },
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
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts", "src/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
      // Type errors in the server's or proxy's sources are theirs to report (their own typecheck);
      // these tests judge what the client's types infer.
      ignoreSourceErrors: true,
    },
  },
});
