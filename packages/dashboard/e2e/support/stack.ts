import { createApp as createProxyApp, parseEnv as parseProxyEnv, serveApp } from "@keyport/dashboard-proxy";
import { createApp as createServerApp, parseEnv as parseServerEnv } from "@keyport/server";
import { type AgentStandIn, startAgent } from "@keyport/test-support/agent-stand-in";
import { freePort } from "./free-port.js";
import { type MarketStandIn, startMarketStandIn } from "./market-stand-in.js";

/** Everything the browser tests run against, on loopback ports. */
export interface Stack {
  /** The dashboard's origin as the browser sees it: `http://localhost:<proxy port>`. */
  origin: string;
  /** The Keyport server's base URL, for REST calls a backend would make (key verification). */
  serverUrl: string;
  agent: AgentStandIn;
  markets: MarketStandIn;
  /** The proxy's log lines so far (JSON), shown when a test fails. */
  proxyLog: string[];
  /** Runs SQL on the server's database (to seed what would take days of traffic, such as usage history). */
  query(text: string, params?: string[]): Promise<unknown[]>;
  /** Stops the Keyport server (the proxy and the stand-ins keep running), as an outage would. */
  stopServer(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the real Keyport server (PGlite in memory), the stand-ins for CoinGecko and the agent, and the
 * real dashboard proxy serving the built dashboard from `dashboardDir`, as `pnpm start` wires them.
 * `serverEnv` adds to (or overrides) the server's settings, e.g. `{ MAX_ACTIVE_KEYS_PER_WALLET: "3" }`.
 */
export async function startStack(
  dashboardDir: string,
  serverEnv: Record<string, string> = {},
): Promise<Stack> {
  const proxyPort = await freePort();
  const origin = `http://localhost:${proxyPort}`;
  const server = await createServerApp(
    parseServerEnv({
      DATABASE_URL: "memory:",
      LOG_LEVEL: "silent",
      SIWE_DOMAINS: `localhost:${proxyPort}`,
      // The browser tests sign in from 127.0.0.1 many times a minute; the server tests the limit itself.
      NONCE_RATE_LIMIT: "off",
      ...serverEnv,
    }),
  );
  const serverPort = await server.listen(0, "127.0.0.1");
  const serverUrl = `http://127.0.0.1:${serverPort}`;
  const agent = await startAgent();
  const markets = await startMarketStandIn();

  const proxyLog: string[] = [];
  const proxyApp = createProxyApp(
    parseProxyEnv({
      KEYPORT_URL: serverUrl,
      PUBLIC_ORIGIN: origin,
      DASHBOARD_DIR: dashboardDir,
      COINGECKO_BASE_URL: markets.baseUrl,
      COINGECKO_STARTUP_CHECK: "off",
      AGENT_URL: agent.url,
      AGENT_PROTOCOL: "openai",
      LOG_LEVEL: "info",
    }),
    { logDestination: { write: (line) => void proxyLog.push(line) } },
  );
  const proxy = serveApp(proxyApp, {
    port: proxyPort,
    hostname: "127.0.0.1",
    silent: true,
    gracefulShutdown: false,
  });
  await proxy.ready();

  return {
    origin,
    serverUrl,
    agent,
    markets,
    proxyLog,
    async query(text, params = []) {
      const driver = server.services.database.driver;
      if (driver.kind === "pglite") return (await driver.client.query(text, params)).rows;
      return [...(await driver.client.unsafe(text, params))];
    },
    stopServer: () => server.close(),
    async close() {
      await proxy.close(true);
      await server.close();
      await agent.close();
      await markets.close();
    },
  };
}
