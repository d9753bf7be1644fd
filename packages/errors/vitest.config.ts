import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "errors",
    include: ["src/**/*.test.ts"],
  },
});
