import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The production build of the dashboard that the proxy serves in these tests. */
    dashboardDir: string;
  }
}

const packageRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Vitest global setup: builds the dashboard once for all browser tests, into a folder of its own (the
 * package's `dist` may be in use by a running `pnpm start`), and removes it afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), "keyport-dashboard-e2e-"));
  // Vitest sets NODE_ENV=test, and Vite builds with the NODE_ENV it finds: React's development build,
  // about 65 KB more than `pnpm start` serves. The production build, as users get it, for its duration.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      root: packageRoot,
      configFile: join(packageRoot, "vite.config.ts"),
      logLevel: "error",
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  project.provide("dashboardDir", outDir);
  return () => rm(outDir, { recursive: true, force: true });
}
