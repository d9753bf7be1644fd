import { serverTestSettings } from "@keyport/test-support/vitest-settings";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): the packed tarball installed into a project
 * outside the workspace, type-checked and run (build, pack, install, tsc: tens of seconds).
 * `pnpm test` keeps the in-workspace client tests.
 */
export const slowTests = ["test/consumer.test.ts"];

/** Settings both tiers share. */
export const shared = serverTestSettings("client", { testTimeout: 60_000, hookTimeout: 120_000 });

export default defineConfig({
  test: {
    ...shared,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...slowTests],
    // The type tests (test/*.test-d.ts) are checked by `pnpm typecheck` (tsc -p tsconfig.json includes
    // them), where a failed expectTypeOf is a compile error; vitest would only repeat that work.
  },
});
