import { createServer } from "node:net";
import { logSink } from "@keyport/test-support/log-sink";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { RpcChainError } from "../src/auth/rpc-chain.js";
import type { Database } from "../src/db/database.js";
import { EnvError, parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";
import { type RpcStandIn, startRpcStandIn } from "./support/rpc-stand-in.js";

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("RPC_URL's chain, checked at start", () => {
  let rpc: RpcStandIn;
  let database: Database;
  beforeAll(async () => {
    [rpc, database] = await Promise.all([startRpcStandIn(5), openTestPglite()]);
  });
  afterAll(async () => {
    await rpc?.close();
    await database?.close();
  });

  it("refuses to start when the node serves a chain SIWE_CHAIN_IDS does not name, in one line without the URL", async () => {
    const env = parseEnv({
      DATABASE_URL: "memory:",
      LOG_LEVEL: "silent",
      RPC_URL: rpc.url,
      SIWE_CHAIN_IDS: "1,10",
    });
    const error = await createApp(env).then(
      () => undefined,
      (cause: unknown) => cause,
    );
    expect(error).toBeInstanceOf(RpcChainError);
    const message = error instanceof Error ? error.message : "";
    expect(message).toMatch(/^RPC_URL serves chain 5, which SIWE_CHAIN_IDS \(1,10\) does not name/);
    expect(message).not.toContain("\n");
    expect(message).not.toContain(new URL(rpc.url).port);
  });

  it("starts when the node serves one of SIWE_CHAIN_IDS", async () => {
    rpc.reset();
    const env = parseEnv({
      DATABASE_URL: "memory:",
      LOG_LEVEL: "silent",
      RPC_URL: rpc.url,
      SIWE_CHAIN_IDS: "1,5",
    });
    const app = await createApp(env, { database });
    try {
      expect(rpc.calls()).toBe(1);
    } finally {
      await app.close();
    }
  });

  it("starts with a warning when the node does not answer: EOAs need no node", async () => {
    const lines: Record<string, unknown>[] = [];
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const env = parseEnv({ DATABASE_URL: "memory:", RPC_URL: url, SIWE_CHAIN_IDS: "1" });
    const app = await createApp(env, {
      database,
      logger: createLogger(
        "info",
        logSink(lines, (line) => JSON.parse(line)),
      ),
    });
    try {
      const warning = lines.find((line) => line.level === 40);
      expect(warning?.msg).toMatch(/^RPC_URL did not answer at start/);
      expect(JSON.stringify(lines)).not.toContain(url);
    } finally {
      await app.close();
    }
  });
});

describe("RPC_URL over plain HTTP", () => {
  it("refuses http:// to a host that is not loopback, without echoing the URL", () => {
    const url = "http://node.example:8545/v3/secret-api-key";
    expect(() => parseEnv({ RPC_URL: url })).toThrow(EnvError);
    expect(() => parseEnv({ RPC_URL: url })).toThrow(/RPC_URL: is http:\/\/ to a host that is not loopback/);
    expect(() => parseEnv({ RPC_URL: url })).not.toThrow(/secret-api-key/);
    expect(() => parseEnv({ RPC_URL: "http://10.0.0.5:8545/" })).toThrow(EnvError);
  });

  it("accepts https://, http:// to loopback, and http:// anywhere with RPC_ALLOW_HTTP=true", () => {
    expect(parseEnv({ RPC_URL: "https://node.example/v3/key" }).RPC_URL).toBe("https://node.example/v3/key");
    for (const url of ["http://127.0.0.1:8545/", "http://localhost:8545/", "http://[::1]:8545/"])
      expect(parseEnv({ RPC_URL: url }).RPC_URL).toBe(url);
    const allowed = parseEnv({ RPC_URL: "http://10.0.0.5:8545/", RPC_ALLOW_HTTP: "true" });
    expect(allowed.RPC_URL).toBe("http://10.0.0.5:8545/");
    expect(allowed.RPC_ALLOW_HTTP).toBe(true);
    expect(parseEnv({}).RPC_ALLOW_HTTP).toBe(false);
    expect(() => parseEnv({ RPC_ALLOW_HTTP: "yes" })).toThrow(/RPC_ALLOW_HTTP/);
  });
});
