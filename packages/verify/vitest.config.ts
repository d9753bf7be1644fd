import { serverTestSettings } from "@keyport/test-support/vitest-settings";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tier (`pnpm test:slow`, vitest.slow.config.ts): the packed tarball installed into projects
 * outside the workspace (the package alone, and with each framework alone), type-checked and run; and
 * what `pnpm pack:public` packs for both published packages; the agent loop, which starts anvil and
 * waits for settlements on it; and the previous release, installed and run against today's server.
 * `pnpm test` keeps the tests against the real server.
 */
export const slowTests = [
  "test/consumer.test.ts",
  "test/pack-public.test.ts",
  "test/agent-loop.test.ts",
  // The docs' agent example run with tsx against anvil.
  "test/agent-example.test.ts",
  // The previous release's tarball installed with npm and run against today's server.
  "test/previous-release.test.ts",
];

/** Settings both tiers share. */
export const shared = serverTestSettings("verify", { testTimeout: 60_000, hookTimeout: 120_000 });

export default defineConfig({
  test: {
    ...shared,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...slowTests],
    // The type tests (test/*.test-d.ts) are checked by `pnpm typecheck` (tsc -p tsconfig.json includes
    // them), where a failed expectTypeOf is a compile error; vitest would only repeat that work.
  },
});
