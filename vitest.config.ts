import { defineConfig } from "vitest/config";

// One `vitest run` at the root runs every package's suite, so the README's test line is one command.
export default defineConfig({
  test: {
    projects: ["packages/*", "bench"],
  },
});
