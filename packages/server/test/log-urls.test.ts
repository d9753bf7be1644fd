import { createServer, type Server } from "node:http";
import { logSink } from "@keyport/test-support/log-sink";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";

// What a provider's URL carries that must never reach a log line: a user, a password, a key in the
// path and one in the query. Only the scheme and host may show (docs/security.md, "Logs").
const SECRETS =
  /rpcuser|rpcpass|v3|sk_rpc_key|apikey|q_key|eth_getCode|0x00000000000000000000000000000000000000a1/;

describe("URL settings in logs", () => {
  const lines: string[] = [];
  let rateLimited: Server;
  let rpcUrl: string;
  let database: Database;
  let app: App;

  beforeAll(async () => {
    // A node that rate-limits every call, as a provider does past its quota.
    rateLimited = createServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json" }).end('{"error":"rate limited"}');
    });
    await new Promise<void>((resolve) => rateLimited.listen(0, "127.0.0.1", resolve));
    const address = rateLimited.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    rpcUrl = `http://rpcuser:rpcpass@127.0.0.1:${port}/v3/sk_rpc_key?apikey=q_key`;
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:", RPC_URL: rpcUrl, LOG_LEVEL: "trace" }), {
      database,
      logger: createLogger("trace", logSink(lines)),
    });
    await app.listen(0, "127.0.0.1");
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await new Promise((resolve) => rateLimited.close(resolve));
  });

  it("never print a credential-bearing URL at start, in the settings or in an HTTP client's error", async () => {
    const logger = app.services.logger;
    // The settings object itself, as a careless debug line would log it.
    logger.debug({ settings: app.services.env }, "settings");
    // A real failed JSON-RPC call: viem's error names the URL and the request body it sent.
    const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
    const failure = await client.getCode({ address: "0x00000000000000000000000000000000000000a1" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    logger.error({ err: failure, cause: failure }, "the node failed");
    logger.warn(`calling ${rpcUrl} failed: ${failure instanceof Error ? failure.message : ""}`);

    const text = lines.join("\n");
    expect(text).toContain("the node failed");
    expect(text).toContain("http://127.0.0.1:");
    expect(text).not.toMatch(SECRETS);
  });
});
