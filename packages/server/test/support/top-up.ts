import { randomBytes } from "node:crypto";
import { request } from "@keyport/test-support/http";
import { TEST_USDC_DOMAIN, TEST_USDC_UNIT, type TestUsdc } from "@keyport/test-support/test-usdc";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { type Address, getAddress, type Hex, type LocalAccount, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { WrittenBalance } from "../../src/credits/balance-writer.js";
import { createKeyOver } from "./keys.js";
import type { TestServer } from "./server.js";

export { paymentsEnv } from "@keyport/test-support/payments-chain";

/** How a top-up request authenticates: the owner's session, or the key's secret. */
export type TopUpCaller = { token: string } | { apiKey: string } | Record<string, never>;

/** `POST /api-keys/:id/top-up` with `{ amount }`, and PAYMENT-SIGNATURE when `payment` is given. */
export function topUpOver(
  baseUrl: string,
  id: string,
  amount: string,
  caller: TopUpCaller,
  payment?: string,
) {
  const headers: Record<string, string> = {};
  if ("apiKey" in caller) headers["x-api-key"] = caller.apiKey;
  if (payment !== undefined) headers["payment-signature"] = payment;
  return request(baseUrl, "POST", `/api-keys/${id}/top-up`, {
    body: { amount },
    headers,
    ...("token" in caller ? { token: caller.token } : {}),
  });
}

/** The decoded PAYMENT-REQUIRED of an answer (throws when it has none). */
export function requiredOf(headers: Headers): PaymentRequired {
  const header = headers.get("payment-required");
  if (header === null) throw new Error("no PAYMENT-REQUIRED header");
  return decodePaymentRequiredHeader(header);
}

/** `required` with its first requirement changed by `change` (a payment for something else). */
export function alteredRequirement(
  required: PaymentRequired,
  change: Partial<PaymentRequired["accepts"][number]>,
): PaymentRequired {
  const [first, ...rest] = required.accepts;
  if (first === undefined) throw new Error("no requirement");
  return { ...required, accepts: [{ ...first, ...change }, ...rest] };
}

export const usdc = (whole: number) => BigInt(whole) * TEST_USDC_UNIT;

/**
 * Adds `amount` purchased credits to balance `creditsId` through the app's own balance writer (the
 * path a paid top-up takes: the row alone, or with Redis's copy fenced and reinstalled), in a
 * transaction of its own. Answers the row as committed.
 * @example await topUp(server, key.apiKey.id, 100);
 */
export async function topUp(server: TestServer, creditsId: string, amount: number) {
  const { database, verification } = server.app.services;
  let written: WrittenBalance | undefined;
  try {
    await database.db.transaction(async (tx) => {
      written = await verification.balances.write(tx, creditsId, { kind: "add", amount }, new Date());
      await written.beforeCommit();
    });
  } catch (error) {
    await written?.settle(false);
    throw error;
  }
  await written?.settle(true);
  return written?.row;
}

/** What `signAuthorization` signs instead of what the requirement asks (seconds are from now). */
export interface AuthorizationChange {
  to?: Address;
  value?: bigint;
  validAfterSeconds?: number;
  validBeforeSeconds?: number;
}

/**
 * An x402 v2 `exact` PAYMENT-SIGNATURE whose `accepted` echoes `required`'s first requirement as is
 * (or as `accepted` changes it) while the EIP-3009 authorization `payer` signs is `change`d: a payment
 * that claims to pay the requirement and does not. Signed as @x402/evm's client signs (the token's
 * EIP-712 domain, a random nonce), so the chain would take it.
 */
export async function signAuthorization(
  payer: LocalAccount,
  required: PaymentRequired,
  change: AuthorizationChange = {},
  accepted: Partial<PaymentRequired["accepts"][number]> = {},
): Promise<{ header: string; nonce: Hex; validBefore: bigint }> {
  const [requirement] = required.accepts;
  if (requirement === undefined) throw new Error("no requirement");
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization = {
    from: payer.address,
    to: change.to ?? getAddress(requirement.payTo),
    value: change.value ?? BigInt(requirement.amount),
    validAfter: now + BigInt(change.validAfterSeconds ?? -600),
    validBefore: now + BigInt(change.validBeforeSeconds ?? requirement.maxTimeoutSeconds),
    nonce: toHex(randomBytes(32)),
  };
  const [, chainId] = requirement.network.split(":");
  const signature = await payer.signTypedData({
    domain: {
      ...TEST_USDC_DOMAIN,
      chainId: Number(chainId),
      verifyingContract: getAddress(requirement.asset),
    },
    types: {
      TransferWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "TransferWithAuthorization",
    message: authorization,
  });
  const header = encodePaymentSignatureHeader({
    x402Version: 2,
    resource: required.resource,
    accepted: { ...requirement, ...accepted },
    payload: {
      signature,
      authorization: {
        ...authorization,
        value: String(authorization.value),
        validAfter: String(authorization.validAfter),
        validBefore: String(authorization.validBefore),
      },
    },
  });
  return { header, nonce: authorization.nonce, validBefore: authorization.validBefore };
}

/** Who signs in to manage keys: the owner's session and its address. */
export interface Owner {
  token: string;
  wallet: string;
}

/**
 * The credits key `id` has left, as its owner's key list shows them (undefined: no such key or no
 * credits).
 * @example expect(await creditsRemaining(server.baseUrl, owner, id)).toBe(5010);
 */
export async function creditsRemaining(
  baseUrl: string,
  owner: Owner,
  id: string,
): Promise<number | undefined> {
  const { body } = await request(baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
  const keys = (body as { keys: { id: string; credits: { remaining: number } | null }[] }).keys;
  return keys.find((key) => key.id === id)?.credits?.remaining;
}

/**
 * A key with 10 credits, a new payer holding 100 test USDC, and the requirement of a 5-token top-up
 * of the key that the server answered with 402: the start of every payment test.
 * @example const { id, payer, wanted } = await unpaidTopUp(server.baseUrl, owner.token, token);
 */
export async function unpaidTopUp(baseUrl: string, ownerToken: string, token: TestUsdc) {
  const { apiKey } = await createKeyOver(baseUrl, ownerToken, { name: "m", credits: { remaining: 10 } });
  const payer = privateKeyToAccount(generatePrivateKey());
  await token.mint(payer.address, usdc(100));
  const unpaid = await topUpOver(baseUrl, apiKey.id, "5", { token: ownerToken });
  return { id: apiKey.id, payer, wanted: requiredOf(unpaid.headers) };
}
