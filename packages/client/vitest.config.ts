import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "client",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
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
