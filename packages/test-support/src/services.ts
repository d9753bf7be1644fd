import { connect } from "node:net";
import postgres from "postgres";

/**
 * The PostgreSQL and Redis the database and shared-state suites run against (docs/configuration.md,
 * "Tests"). Decided once per run, in the root vitest.config.ts, which puts the answer back into
 * TEST_DATABASE_URL / TEST_REDIS_URL for the test files (and the processes they start) to read.
 */
export interface TestServices {
  /** An admin URL: tests create their own databases on its server and drop them; undefined skips those suites. */
  databaseUrl: string | undefined;
  /** Tests use their own key prefix on it and delete it; undefined skips those suites. */
  redisUrl: string | undefined;
}

/** What `pnpm test` tries when TEST_DATABASE_URL / TEST_REDIS_URL are unset: the usual local ports. */
export const LOCAL_SERVICES = {
  databaseUrl: "postgres://postgres@127.0.0.1:5432/postgres",
  redisUrl: "redis://127.0.0.1:6379",
} as const;

export interface ResolveOptions {
  /** The URLs probed when the variables are unset (or empty). */
  local?: { databaseUrl: string; redisUrl: string };
  /**
   * How long each probe may take; both run at once. A service that is down refuses the connection at
   * once, so the bound only matters for one that is up but slow: on a loaded machine PostgreSQL can take
   * over half a second to start a backend, and a short bound would skip its suites for no reason.
   */
  timeoutMs?: number;
}

/**
 * A variable that is set (and not empty) is used as given, without a probe, so a wrong URL fails the
 * suites loudly rather than skipping them. An unset one is replaced by the local service when that
 * answers within `timeoutMs`.
 * @example const services = await resolveTestServices(process.env);
 */
export async function resolveTestServices(
  env: Readonly<Record<string, string | undefined>>,
  options: ResolveOptions = {},
): Promise<TestServices> {
  const local = options.local ?? LOCAL_SERVICES;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const [databaseUrl, redisUrl] = await Promise.all([
    env.TEST_DATABASE_URL || ifAnswers(local.databaseUrl, postgresAnswers(local.databaseUrl, timeoutMs)),
    env.TEST_REDIS_URL || ifAnswers(local.redisUrl, redisAnswers(local.redisUrl, timeoutMs)),
  ]);
  return { databaseUrl, redisUrl };
}

async function ifAnswers(url: string, answers: Promise<boolean>): Promise<string | undefined> {
  return (await answers) ? url : undefined;
}

/**
 * The one line a run prints when a service is missing: which suites did not run and how to run them;
 * undefined when both are there.
 */
export function describeSkippedSuites(services: TestServices, local = LOCAL_SERVICES): string | undefined {
  const missing: string[] = [];
  if (!services.databaseUrl)
    missing.push(`the PostgreSQL suites (no TEST_DATABASE_URL, nothing at ${local.databaseUrl})`);
  if (!services.redisUrl) missing.push(`the Redis suites (no TEST_REDIS_URL, nothing at ${local.redisUrl})`);
  if (missing.length === 0) return undefined;
  return `Skipped ${missing.join(" and ")}: start them, or set TEST_DATABASE_URL=postgres://... / TEST_REDIS_URL=redis://... (docs/configuration.md, "Tests and benchmarks").`;
}

/** True when PostgreSQL at `url` accepts a connection and answers a query within `timeoutMs`. */
async function postgresAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: timeoutMs / 1000, onnotice: () => {} });
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    return await Promise.race([sql`select 1`.then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    await sql.end({ timeout: 0 }).catch(() => {});
  }
}

/** True when Redis at `url` answers PING with PONG within `timeoutMs` (one raw command, no client library). */
function redisAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => done(data.toString("latin1").startsWith("+PONG")));
  });
}

/**
 * What a vitest config calls before its tests start: resolves the services, writes the answer into
 * TEST_DATABASE_URL / TEST_REDIS_URL (deleted when a service is missing) and prints the skipped line.
 * @example await settleTestServices(); // at the top of vitest.config.ts
 */
export async function settleTestServices(): Promise<TestServices> {
  const services = await resolveTestServices(process.env);
  for (const [name, value] of [
    ["TEST_DATABASE_URL", services.databaseUrl],
    ["TEST_REDIS_URL", services.redisUrl],
  ] as const) {
    if (value) process.env[name] = value;
    else delete process.env[name];
  }
  const skipped = describeSkippedSuites(services);
  if (skipped) console.warn(skipped);
  return services;
}
