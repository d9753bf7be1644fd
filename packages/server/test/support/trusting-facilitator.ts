import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { portOf } from "@keyport/test-support/port";
import { type TestUsdc, testUsdcAbi } from "@keyport/test-support/test-usdc";
import { type Address, createWalletClient, type Hex, http, isAddress, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { z } from "zod";

/**
 * What the stand-in does with a settlement:
 * - `settle`: submits the authorization as signed and answers its transaction (success when it was mined
 *   without reverting);
 * - `fail`: answers 500 and submits nothing; the payload is kept for `settleHeld` (a facilitator that
 *   broadcasts late);
 * - `settle-then-fail`: submits it, waits for it to be mined, then answers 500 (the answer was lost).
 */
export type TrustingMode = "settle" | "fail" | "settle-then-fail";

/** A facilitator on 127.0.0.1 that checks nothing: only Keyport's own checks can refuse a payment. */
export interface TrustingFacilitator {
  /** For `PAYMENTS_FACILITATOR_URL`. */
  url: string;
  calls: { verify: number; settle: number };
  setMode(mode: TrustingMode): void;
  /** Submits every settlement `fail` kept, as signed; answers their transactions. */
  settleHeld(): Promise<Hex[]>;
  close(): Promise<void>;
}

const address = z.custom<Address>(
  (value) => typeof value === "string" && isAddress(value, { strict: false }),
);
const hex = z.custom<Hex>((value) => typeof value === "string" && isHex(value));
const uint = z
  .string()
  .regex(/^\d{1,78}$/)
  .transform(BigInt);
const authorization = z.object({
  from: address,
  to: address,
  value: uint,
  validAfter: uint,
  validBefore: uint,
  nonce: hex,
});
const request = z.object({
  paymentPayload: z.object({ payload: z.object({ signature: hex, authorization }) }),
});
type Held = z.infer<typeof request>["paymentPayload"]["payload"];

/**
 * Starts a facilitator that answers every `/verify` with `isValid: true` and settles whatever it is given
 * by calling the token's `transferWithAuthorization` with the signed authorization (the chain's own
 * checks still apply), from an account of its own funded on anvil.
 * @example const facilitator = await startTrustingFacilitator(usdc);
 */
export async function startTrustingFacilitator(usdc: TestUsdc): Promise<TrustingFacilitator> {
  const account = privateKeyToAccount(generatePrivateKey());
  await usdc.fundEther(account.address);
  const wallet = createWalletClient({ account, chain: usdc.chain, transport: http() });
  const calls = { verify: 0, settle: 0 };
  let mode: TrustingMode = "settle";
  const held: Held[] = [];
  // One settlement at a time: the account's transaction nonces stay in order.
  let queue: Promise<unknown> = Promise.resolve();

  function submit(payload: Held): Promise<{ transaction: Hex; success: boolean }> {
    const run = async () => {
      const { from, to, value, validAfter, validBefore, nonce } = payload.authorization;
      const transaction = await wallet.writeContract({
        address: usdc.address,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [from, to, value, validAfter, validBefore, nonce, payload.signature],
        gas: 200_000n,
      });
      const receipt = await usdc.publicClient.waitForTransactionReceipt({ hash: transaction });
      return { transaction, success: receipt.status === "success" };
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const send = (status: number, value: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    };
    const parsed = request.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8") || "null"));
    if (!parsed.success) return send(400, { error: "not an exact EVM payment" });
    const { payload } = parsed.data.paymentPayload;
    const payer = payload.authorization.from;
    if (req.url === "/verify") {
      calls.verify++;
      return send(200, { isValid: true, payer });
    }
    if (req.url !== "/settle") return send(404, { error: "not found" });
    calls.settle++;
    if (mode === "fail") {
      held.push(payload);
      return send(500, { error: "facilitator fault" });
    }
    const settled = await submit(payload);
    if (mode === "settle-then-fail") return send(500, { error: "facilitator fault" });
    return send(200, {
      success: settled.success,
      ...(settled.success ? {} : { errorReason: "transaction_reverted" }),
      transaction: settled.transaction,
      network: usdc.network,
      payer,
    });
  }

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      res
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${portOf(server.address())}`,
    calls,
    setMode(next) {
      mode = next;
    },
    async settleHeld() {
      const payloads = held.splice(0);
      const transactions: Hex[] = [];
      for (const payload of payloads) transactions.push((await submit(payload)).transaction);
      return transactions;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
