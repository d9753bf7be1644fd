import { installProcessFaultHandlers } from "@keyport/node-edge";
import { closeApp, createApp } from "./app.js";
import { EnvError, loadEnv } from "./env.js";
import { createLogger } from "./http/logger.js";
import { publicUrl } from "./http/public-url.js";
import { serveApp } from "./http/serve.js";
import { runStartupCheck } from "./upstream/startup-check.js";

// Entry point of `pnpm start`: validate settings, listen on HOST:PORT, drain on SIGTERM/SIGINT.

// Before the settings are read (they set LOG_LEVEL): start-up lines only, with the app's redaction.
const log = createLogger("info");

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

  const app = createApp(env);
  const server = serveApp(app, {
    port: env.PORT,
    hostname: env.HOST,
    // No srvx trustProxy: it would believe X-Forwarded-Host too; the app reads TRUSTED_PROXIES itself.
    silent: true,
    gracefulShutdown: false,
  });
  // A rejection nothing handled is logged and counted, and the proxy keeps serving; an uncaught
  // exception drains (10 s at most) and exits 1 (docs/decisions.md, "Process faults").
  installProcessFaultHandlers({ logger: log, drain: () => server.close() });
  server.ready().then(
    () => {
      const address = server.node?.server?.address();
      const url = publicUrl(
        env.HOST,
        typeof address === "object" && address !== null ? address.port : env.PORT,
      );
      log.info(
        { url, coingeckoPlan: env.COINGECKO_PLAN, chat: env.AGENT_URL !== undefined },
        `dashboard proxy listening on ${url}`,
      );
      // One cheap CoinGecko call to catch a wrong key or host now rather than at the first chart;
      // never awaited, so a slow or absent CoinGecko cannot hold up the start.
      if (env.COINGECKO_STARTUP_CHECK === "on") void runStartupCheck(app);
    },
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
    // Redis is quit after the last request, which may still be using it.
    server
      .close()
      .then(() => closeApp(app))
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  // `on`, not `once`: under the root start a Ctrl-C arrives twice (from the terminal and forwarded), and
  // a second signal must not fall through to Node's default, which kills the process mid-drain.
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

start();
