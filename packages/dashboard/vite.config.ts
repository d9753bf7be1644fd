import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

// The dev server forwards the proxy's routes so `pnpm dev` talks to a running dashboard proxy,
// keeping one origin for the page as in production (the session cookie is same-origin only).
const proxyTarget = `http://127.0.0.1:${process.env.DASHBOARD_PORT ?? "3001"}`;

export default defineConfig({
  plugins: [react()],
  resolve: {
    // `source` reads @keyport/client's TypeScript directly: no client build step before the dashboard's.
    conditions: ["source", ...defaultClientConditions],
  },
  server: {
    proxy: {
      "/api": { target: proxyTarget },
      "/trpc": { target: proxyTarget },
    },
  },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
  },
});
