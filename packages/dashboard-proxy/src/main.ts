import { pino } from "pino";
import { createApp } from "./app.js";
import { EnvError, loadEnv } from "./env.js";
import { serveApp } from "./http/serve.js";

// Entry point of `pnpm start`: validate settings, listen on PORT, drain on SIGTERM/SIGINT.

const log = pino({ base: { service: "dashboard-proxy" } });

function start(): void {
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      log.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }

  const server = serveApp(createApp(env), {
    port: env.PORT,
    // srvx resolves the client IP (rate limiting) from X-Forwarded-For only when told to.
    trustProxy: env.TRUST_PROXY,
    silent: true,
    gracefulShutdown: false,
  });
  server.ready().then(
    () =>
      log.info(
        { url: server.url, coingeckoPlan: env.COINGECKO_PLAN, chat: env.AGENT_URL !== undefined },
        "listening",
      ),
    (error: unknown) => {
      log.fatal({ error: error instanceof Error ? error.message : String(error) }, "cannot listen");
      process.exit(1);
    },
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    // Let in-flight requests (chat streams included) finish, but not forever.
    const force = setTimeout(() => void server.close(true), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

start();
