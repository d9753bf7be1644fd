import { createServer } from "node:net";
import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { fetchNonce, newAccount } from "@keyport/test-support/siwe";
import type { Address, Hex } from "viem";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";
import { EVM_CHAIN_ID, type Evm, startEvm } from "./support/evm.js";

/** A server with its log lines, parsed. */
interface LoggedApp {
  baseUrl: string;
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

async function startLoggedApp(database: Database, env: Record<string, string>): Promise<LoggedApp> {
  const logs: Record<string, unknown>[] = [];
  const sink = logSink(logs, (line) => JSON.parse(line));
  const app: App = await createApp(parseEnv({ DATABASE_URL: "memory:", NONCE_RATE_LIMIT: "off", ...env }), {
    database,
    logger: createLogger("info", sink),
  });
  const baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
  return { baseUrl, logs, close: () => app.close() };
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The message a contract wallet signs in with: its own address, on the node's chain unless told. */
function walletMessage(address: Address, nonce: string, chainId = EVM_CHAIN_ID): string {
  return createSiweMessage({
    address,
    domain: "localhost",
    uri: "http://localhost/login",
    version: "1",
    chainId,
    nonce,
    issuedAt: new Date(),
    statement: "Sign in to Keyport",
  });
}

const verify = (baseUrl: string, message: string, signature: Hex) =>
  request(baseUrl, "POST", "/auth/verify", { body: { message, signature } });

const refusals = (logs: Record<string, unknown>[], from: number) =>
  logs.slice(from).filter((entry) => entry.msg === "sign-in refused");

describe("contract-wallet sign-in through RPC_URL (anvil, solc-compiled ERC-1271 wallet)", () => {
  let evm: Evm;
  let database: Database;
  let server: LoggedApp;
  const owner = newAccount();
  let wallet: Address;

  beforeAll(async () => {
    [evm, database] = await Promise.all([startEvm(), openTestPglite()]);
    wallet = await evm.deployWallet(owner.address);
    server = await startLoggedApp(database, { RPC_URL: evm.url, SIWE_CHAIN_IDS: `1,${EVM_CHAIN_ID}` });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
    await evm?.close();
  });

  it("signs in a deployed wallet with its owner's signature, as the wallet", async () => {
    const message = walletMessage(wallet, await fetchNonce(server.baseUrl));
    const { status, body } = await verify(server.baseUrl, message, await owner.signMessage({ message }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ wallet, token: expect.stringMatching(/^kps_/) });
    const token = (body as { token: string }).token;
    expect((await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token })).status).toBe(200);
  });

  it("refuses the owner's signature of another message with 401", async () => {
    const message = walletMessage(wallet, await fetchNonce(server.baseUrl));
    const before = server.logs.length;
    const signature = await owner.signMessage({ message: `${message} ` });
    const { status, body } = await verify(server.baseUrl, message, signature);
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: "UNAUTHORIZED" });
    expect(refusals(server.logs, before)).toEqual([expect.objectContaining({ check: "signature" })]);
  });

  it("refuses an EOA that is not the wallet's owner with 401", async () => {
    const message = walletMessage(wallet, await fetchNonce(server.baseUrl));
    const before = server.logs.length;
    const { status } = await verify(server.baseUrl, message, await newAccount().signMessage({ message }));
    expect(status).toBe(401);
    expect(refusals(server.logs, before)).toEqual([expect.objectContaining({ check: "signature" })]);
  });

  it("refuses a wallet signature for a chain the node is not on with 401", async () => {
    const message = walletMessage(wallet, await fetchNonce(server.baseUrl), 1);
    const before = server.logs.length;
    const { status, body } = await verify(server.baseUrl, message, await owner.signMessage({ message }));
    expect(status).toBe(401);
    expect(body).toEqual({
      code: "UNAUTHORIZED",
      message: `The message's chain ID 1 is not the chain a contract wallet is checked on here (${EVM_CHAIN_ID})`,
    });
    expect(refusals(server.logs, before)).toEqual([expect.objectContaining({ check: "chain_id" })]);
  });

  it("signs in a counterfactual (not yet deployed) wallet with an ERC-6492 signature, without deploying it", async () => {
    const counterfactual = await evm.counterfactualWallet(newAccount().address);
    const signer = newAccount();
    const mine = await evm.counterfactualWallet(signer.address);
    expect(await evm.codeAt(mine.address)).toBeUndefined();
    const message = walletMessage(mine.address, await fetchNonce(server.baseUrl));
    const signature = mine.wrap(await signer.signMessage({ message }));
    const { status, body } = await verify(server.baseUrl, message, signature);
    expect(status).toBe(200);
    expect(body).toMatchObject({ wallet: mine.address });
    // The check simulated the deployment: nothing was written on chain.
    expect(await evm.codeAt(mine.address)).toBeUndefined();
    // Another owner's counterfactual wallet does not accept this signer.
    const other = walletMessage(counterfactual.address, await fetchNonce(server.baseUrl));
    const refused = await verify(
      server.baseUrl,
      other,
      counterfactual.wrap(await signer.signMessage({ message: other })),
    );
    expect(refused.status).toBe(401);
  });

  it("still signs EOAs in without asking the node", async () => {
    const eoa = newAccount();
    const message = walletMessage(eoa.address, await fetchNonce(server.baseUrl));
    expect((await verify(server.baseUrl, message, await eoa.signMessage({ message }))).status).toBe(200);
  });

  describe("with RPC_URL unreachable", () => {
    let unreachable: LoggedApp;
    let url: string;
    beforeAll(async () => {
      url = `http://127.0.0.1:${await closedPort()}`;
      unreachable = await startLoggedApp(database, { RPC_URL: url, SIWE_CHAIN_IDS: `${EVM_CHAIN_ID}` });
    });
    afterAll(() => unreachable?.close());

    it("answers a contract wallet 503 SERVICE_UNAVAILABLE and logs that RPC_URL did not answer, without the URL", async () => {
      const message = walletMessage(wallet, await fetchNonce(unreachable.baseUrl));
      const before = unreachable.logs.length;
      const { status, body } = await verify(
        unreachable.baseUrl,
        message,
        await owner.signMessage({ message }),
      );
      expect(status).toBe(503);
      expect(body).toEqual({
        code: "SERVICE_UNAVAILABLE",
        message: expect.stringMatching(/retry/),
        requestId: expect.any(String),
      });
      const written = unreachable.logs.slice(before);
      expect(written).toContainEqual(
        expect.objectContaining({
          level: 40,
          rpcError: "ECONNREFUSED",
          msg: expect.stringContaining("RPC_URL"),
        }),
      );
      expect(JSON.stringify(written)).not.toContain(url);
      expect(refusals(unreachable.logs, before)).toEqual([]);
    });

    it("answers the same over /trpc", async () => {
      const message = walletMessage(wallet, await fetchNonce(unreachable.baseUrl));
      const signature = await owner.signMessage({ message });
      const { status } = await request(unreachable.baseUrl, "POST", "/trpc/auth.verify", {
        body: { json: { message, signature } },
      });
      expect(status).toBe(503);
    });

    it("still signs an EOA in: its signature needs no node", async () => {
      const eoa = newAccount();
      const message = walletMessage(eoa.address, await fetchNonce(unreachable.baseUrl));
      expect((await verify(unreachable.baseUrl, message, await eoa.signMessage({ message }))).status).toBe(
        200,
      );
    });
  });
});
