import { randomBytes } from "node:crypto";
import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { parsePrometheus, sampleValue } from "@keyport/test-support/prometheus";
import { signIn } from "@keyport/test-support/siwe";
import {
  deployTestUsdc,
  TEST_USDC_DOMAIN,
  type TestUsdc,
  testUsdcAbi,
} from "@keyport/test-support/test-usdc";
import { signPayment } from "@keyport/test-support/x402-payment";
import { eq } from "drizzle-orm";
import { type Address, createWalletClient, type Hex, http, isHex, type LocalAccount, toHex } from "viem";
import { generatePrivateKey, nonceManager, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import { apiKeys, payments } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { type RpcProxy, startRpcProxy } from "./support/rpc-proxy.js";
import { startTestServer, type TestServer } from "./support/server.js";
import {
  creditsRemaining,
  paymentsEnv,
  signAuthorization,
  usdc as tokens,
  topUpOver,
  unpaidTopUp,
} from "./support/top-up.js";
import { startTrustingFacilitator, type TrustingFacilitator } from "./support/trusting-facilitator.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 250 ms until it holds or `ms` pass; answers whether it held. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(250);
  }
  return check();
}

let anvil: Anvil;
let token: TestUsdc;
let node: RpcProxy;
let facilitator: TrustingFacilitator;
const payTo: Address = privateKeyToAccount(generatePrivateKey()).address;

/**
 * Mines `blocks` empty blocks at once (anvil_mine, no time limit: thousands take seconds on a busy
 * machine), without moving the chain's clock (the token checks validBefore against it).
 */
async function mine(blocks: number): Promise<void> {
  const response = await fetch(anvil.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_mine", params: [toHex(blocks)] }),
  });
  if (!response.ok) throw new Error(`anvil_mine answered ${response.status}`);
}

beforeAll(async () => {
  anvil = await startAnvil();
  token = await deployTestUsdc(anvil.url);
  // A chain longer than one allowed log range: a search from block 0 to the head is refused.
  await mine(2_500);
  node = await startRpcProxy(anvil.url, { maxLogRange: 1_000 });
  facilitator = await startTrustingFacilitator(token);
  await token.fundEther(canceller.address);
});
afterAll(async () => {
  await facilitator?.close();
  await node?.close();
  await anvil?.close();
});

/** The account that sends cancellations (anyone may: the payer's signature authorizes them). */
const canceller = privateKeyToAccount(generatePrivateKey(), { nonceManager });

/** Cancels `payer`'s EIP-3009 authorization `nonce` on chain (its signature, sent by `canceller`). */
async function cancelOnChain(payer: LocalAccount, nonce: Hex): Promise<void> {
  const signature = await payer.signTypedData({
    domain: { ...TEST_USDC_DOMAIN, chainId: anvil.chainId, verifyingContract: token.address },
    types: {
      CancelAuthorization: [
        { name: "authorizer", type: "address" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "CancelAuthorization",
    message: { authorizer: payer.address, nonce },
  });
  const wallet = createWalletClient({ account: canceller, chain: token.chain, transport: http(anvil.url) });
  const hash = await wallet.writeContract({
    address: token.address,
    abi: testUsdcAbi,
    functionName: "cancelAuthorization",
    args: [payer.address, nonce, signature],
    gas: 200_000n,
  });
  const receipt = await token.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error("cancelAuthorization reverted");
}

// A node with a hosted provider's limits (eth_getLogs over at most 1,000 blocks) in front of a chain longer
// than that, and a facilitator whose settlements can fail, come late or be cancelled.
describeDatabases("recovery of payments left open", (target) => {
  let server: TestServer;
  let owner: { token: string; wallet: string };
  beforeAll(async () => {
    const { PAYMENTS_SETTLER_PRIVATE_KEY: _, ...onChain } = paymentsEnv(
      token,
      node.url,
      payTo,
      generatePrivateKey(),
    );
    server = await startTestServer(target, { ...onChain, PAYMENTS_FACILITATOR_URL: facilitator.url });
    owner = await signIn(server.baseUrl);
  });
  afterAll(() => server?.close());

  const setUp = () => unpaidTopUp(server.baseUrl, owner.token, token);

  const remainingOf = (id: string) => creditsRemaining(server.baseUrl, owner, id);

  const rowOf = async (nonce: string) => {
    const [row] = await target.database.db
      .select()
      .from(payments)
      .where(eq(payments.nonce, nonce.toLowerCase()));
    return row;
  };

  const nonceOf = (header: string): Hex =>
    z
      .object({ payload: z.object({ authorization: z.object({ nonce: z.custom<Hex>(isHex) }) }) })
      .parse(JSON.parse(Buffer.from(header, "base64").toString("utf8"))).payload.authorization.nonce;

  it("credits a settlement broadcast late, found by searching forward from the recorded block in 1,000-block ranges", async () => {
    facilitator.setMode("fail");
    const { id, payer, wanted } = await setUp();
    // Valid for 10 minutes (its signer's choice), so mining the blocks below never outlasts it.
    const { header } = await signAuthorization(payer, wanted, { validBeforeSeconds: 600 });
    const first = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
    expect(first.status).toBe(503);
    const recordedAt = await token.publicClient.getBlockNumber();
    const ranges = node.logRanges.length;
    // The facilitator broadcasts 2,500 blocks later.
    await mine(2_500);
    const [transaction] = await facilitator.settleHeld();
    // Sent again, the payment is taken up at once (whatever the reconciler's back-off): its transaction
    // is found by searching forward from the recorded block.
    const replay = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ topUp: { credits: 5000, transaction } });
    expect(await rowOf(nonceOf(header))).toMatchObject({ status: "credited", transaction });
    const searched = node.logRanges.slice(ranges);
    expect(searched.length).toBeGreaterThanOrEqual(3);
    for (const [from, to] of searched) expect(to - from + 1n).toBeLessThanOrEqual(1_000n);
    expect(node.refused()).toBe(0);
    expect((await rowOf(nonceOf(header)))?.fromBlock).toBe(Number(recordedAt) - 20);
    const again = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
    expect(again.status).toBe(200);
    expect(await remainingOf(id)).toBe(5010);
    expect(await token.balanceOf(payer.address)).toBe(tokens(95));
  });

  it("fails a payment whose authorization its payer cancelled on chain", async () => {
    facilitator.setMode("fail");
    const { id, payer, wanted } = await setUp();
    const { header } = await signPayment(payer, wanted);
    expect((await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header)).status).toBe(503);
    await cancelOnChain(payer, nonceOf(header));
    const message = "The payment authorization was cancelled on chain";
    expect(await eventually(async () => (await rowOf(nonceOf(header)))?.status === "failed", 90_000)).toBe(
      true,
    );
    expect((await rowOf(nonceOf(header)))?.answer).toEqual({ kind: "refused", message });
    const replay = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
    expect(replay.status).toBe(402);
    expect(replay.body).toEqual({ code: "PAYMENT_REQUIRED", message });
    // The facilitator cannot settle it any more: the chain refuses a cancelled authorization.
    await facilitator.settleHeld();
    expect(await remainingOf(id)).toBe(10);
    expect(await token.balanceOf(payer.address)).toBe(tokens(100));
  });

  it("searches from the block of its time for a payment recorded without its block (before it was recorded, or with the node down)", async () => {
    facilitator.setMode("fail");
    const { id, payer, wanted } = await setUp();
    const { header } = await signPayment(payer, wanted);
    expect((await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header)).status).toBe(503);
    await target.database.db
      .update(payments)
      .set({ fromBlock: null })
      .where(eq(payments.nonce, nonceOf(header).toLowerCase()));
    const ranges = node.logRanges.length;
    await cancelOnChain(payer, nonceOf(header));
    expect(await eventually(async () => (await rowOf(nonceOf(header)))?.status === "failed", 90_000)).toBe(
      true,
    );
    expect((await rowOf(nonceOf(header)))?.answer).toEqual({
      kind: "refused",
      message: "The payment authorization was cancelled on chain",
    });
    for (const [from, to] of node.logRanges.slice(ranges)) expect(to - from + 1n).toBeLessThanOrEqual(1_000n);
    expect(node.refused()).toBe(0);
    await facilitator.settleHeld();
  });

  it("lets no stuck payment hold a newer one, shows the stuck ones in metrics, and closes them once logs answer", async () => {
    const { id } = await setUp();
    const [key] = await target.database.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    if (key?.creditsId == null) throw new Error("no metered key");
    const payer = privateKeyToAccount(generatePrivateKey());
    const head = Number(await token.publicClient.getBlockNumber());
    const expired = new Date(Date.now() - 120_000);
    const row = (nonce: Hex) => ({
      network: token.network,
      asset: token.address.toLowerCase(),
      payer: payer.address.toLowerCase(),
      nonce: nonce.toLowerCase(),
      signatureHash: randomBytes(32).toString("hex"),
      keyId: id,
      creditsId: key.creditsId ?? "",
      wallet: owner.wallet,
      amount: "5",
      baseUnits: "5000000",
      credits: 5000,
      validBefore: expired,
      status: "pending" as const,
      lockedUntil: new Date(Date.now() - 1_000),
      fromBlock: head,
    });
    // 52 payments (more than one reconciler batch) whose authorizations were spent, recorded first:
    // while the node's logs do not answer, none of them can be decided.
    const stuck = Array.from({ length: 52 }, () => toHex(randomBytes(32)));
    await Promise.all(stuck.map((nonce) => cancelOnChain(payer, nonce)));
    node.setLogsDown(true);
    onTestFinished(() => node.setLogsDown(false));
    await target.database.db.insert(payments).values(stuck.map(row));
    const newer = toHex(randomBytes(32));
    await target.database.db.insert(payments).values(row(newer));

    const stuckGauge = async () => {
      const samples = parsePrometheus(await (await fetch(`${server.baseUrl}/metrics`)).text());
      return sampleValue(samples, "keyport_payments_stuck", {});
    };
    const before = await stuckGauge();
    // The newer payment (never settled, expired) is failed although every older one stays open.
    expect(await eventually(async () => (await rowOf(newer))?.status === "failed", 90_000)).toBe(true);
    expect(await eventually(async () => (await stuckGauge()) === before + 52, 30_000)).toBe(true);
    for (const nonce of stuck) expect((await rowOf(nonce))?.status).toBe("pending");
    expect((await rowOf(stuck[0] ?? "0x"))?.attempts).toBeGreaterThan(0);

    node.setLogsDown(false);
    const closed = async () =>
      (await Promise.all(stuck.map(rowOf))).every((found) => found?.status === "failed");
    expect(await eventually(closed, 180_000)).toBe(true);
    expect(await eventually(async () => (await stuckGauge()) === before, 30_000)).toBe(true);
  }, 240_000);
});
