import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type ServerChild, startChild } from "./child.js";
import type { BenchDatabase } from "./databases.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Settings every child shares. */
export interface ChildSettings {
  cpuProfDir: string | undefined;
  logLevel: string;
  /** Checkout to take packages/* from; undefined is this one. */
  tree: string | undefined;
}

function packageDir(settings: ChildSettings, name: string): string {
  return join(settings.tree ?? ROOT, "packages", name);
}

const built = new Set<string>();

/** Builds a package's dist/ once per run, so its server runs as `pnpm start` runs it: plain node. */
function builtPackageDir(settings: ChildSettings, name: string): string {
  const dir = packageDir(settings, name);
  if (!built.has(dir)) {
    execFileSync("pnpm", ["run", "--silent", "build"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    built.add(dir);
  }
  return dir;
}

/** The Keyport server (`packages/server/dist/main.js`, built from src/) on `database`, with extra settings in `env`. */
export async function startKeyport(
  name: string,
  database: BenchDatabase,
  settings: ChildSettings,
  env: Record<string, string> = {},
): Promise<ServerChild> {
  const port = await freePort();
  const databaseEnv: Record<string, string> =
    database.kind === "postgres"
      ? // A bench-only key: env.ts requires one on PostgreSQL (docs/webhooks.md).
        { DATABASE_URL: database.url, WEBHOOKS_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") }
      : { DATA_DIR: database.dir };
  return startChild({
    name,
    entry: "dist/main.js",
    cwd: builtPackageDir(settings, "server"),
    // The bench signs in up to 100 wallets a scenario from 127.0.0.1: past the default 10 nonces a minute.
    env: {
      PORT: String(port),
      LOG_LEVEL: settings.logLevel,
      NONCE_RATE_LIMIT: "off",
      ...databaseEnv,
      ...env,
    },
    port,
    healthPath: "/healthz",
    cpuProfDir: settings.cpuProfDir,
  });
}

/** The dashboard proxy (`packages/dashboard-proxy/dist/main.js`, built from src/). */
export async function startDashboardProxy(
  settings: ChildSettings,
  env: Record<string, string>,
): Promise<ServerChild> {
  const port = await freePort();
  return startChild({
    name: "dashboard-proxy",
    entry: "dist/main.js",
    cwd: builtPackageDir(settings, "dashboard-proxy"),
    env: { PORT: String(port), LOG_LEVEL: settings.logLevel, ...env },
    port,
    healthPath: "/healthz",
    cpuProfDir: settings.cpuProfDir,
  });
}

/** One of the bench's own servers (`bench/servers/<file>.ts`): baselines and upstream stand-ins. */
export async function startBenchServer(
  file: string,
  settings: ChildSettings,
  env: Record<string, string> = {},
  name = file,
): Promise<ServerChild> {
  const port = await freePort();
  return startChild({
    name,
    entry: `bench/servers/${file}.ts`,
    cwd: ROOT,
    env: { PORT: String(port), ...env },
    port,
    healthPath: "/healthz",
    cpuProfDir: settings.cpuProfDir,
  });
}
