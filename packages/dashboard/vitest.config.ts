import react from "@vitejs/plugin-react";
import { defaultClientConditions } from "vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ["source", ...defaultClientConditions] },
  test: {
    name: "dashboard",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    // Most files test plain functions; the few that render a component ask for happy-dom in their first
    // line (`// @vitest-environment happy-dom`), so the others do not pay for loading a DOM.
    environment: "node",
  },
});
