import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "node-edge",
    include: ["src/**/*.test.ts"],
    // The Redis variants of the rate limiter tests run when TEST_REDIS_URL is set.
    testTimeout: 30_000,
  },
});
