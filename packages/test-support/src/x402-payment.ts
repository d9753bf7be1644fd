import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import type { Address, LocalAccount } from "viem";
import { TEST_USDC_DOMAIN, type TestUsdc } from "./test-usdc.js";

/** A signed x402 v2 payment: the payload, and the same as the base64 `PAYMENT-SIGNATURE` header value. */
export interface SignedPayment {
  payload: PaymentPayload;
  header: string;
}

export interface SignPaymentOptions {
  /**
   * Seconds from now until the authorization's `validBefore`, instead of the requirement's
   * `maxTimeoutSeconds` (what real clients use). 0 signs one that x402's facilitator already counts as
   * expired (it wants 6 seconds left); `accepted` still echoes the requirement unchanged.
   */
  expiresInSeconds?: number;
}

/**
 * An x402 v2 client paying from `account` as a real agent's does: @x402/core's client with @x402/evm's
 * exact client scheme, signing locally. Spend controls are off: the test token is not one of x402's
 * known assets. Hand it to `@x402/fetch`'s `wrapFetchWithPayment`.
 * @example const paidFetch = wrapFetchWithPayment(fetch, payingClient(payer));
 */
export function payingClient(account: LocalAccount): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  client.setSpendControls(false);
  return client;
}

/**
 * Signs an x402 v2 "exact" EVM payment (an EIP-3009 `TransferWithAuthorization`) for the first of
 * `paymentRequired.accepts`, as a real x402 client does: @x402/core's client with @x402/evm's exact client
 * scheme, the account signing locally. A fresh random nonce each call, valid from 10 minutes ago until
 * `maxTimeoutSeconds` from now (`payingClient`'s client).
 * @example const { header } = await signPayment(payer, decodePaymentRequiredHeader(response.headers.get("payment-required") ?? ""));
 */
export async function signPayment(
  account: LocalAccount,
  paymentRequired: PaymentRequired,
  options: SignPaymentOptions = {},
): Promise<SignedPayment> {
  const [requirement] = paymentRequired.accepts;
  if (!requirement) throw new Error("paymentRequired.accepts is empty");
  const client = payingClient(account);
  const { expiresInSeconds } = options;
  if (expiresInSeconds === undefined) {
    const payload = await client.createPaymentPayload(paymentRequired);
    return { payload, header: encodePaymentSignatureHeader(payload) };
  }
  const shortLived = { ...requirement, maxTimeoutSeconds: expiresInSeconds };
  const signed = await client.createPaymentPayload({ ...paymentRequired, accepts: [shortLived] });
  const payload = { ...signed, accepted: requirement };
  return { payload, header: encodePaymentSignatureHeader(payload) };
}

/**
 * What a server selling `amount` base units of `usdc` to `payTo` asks for: an x402 v2 PaymentRequired with
 * one "exact" requirement (60 s to settle), for tests that pay without a Keyport server in front.
 * @example await signPayment(payer, testPaymentRequired(usdc, payee, 3n * TEST_USDC_UNIT));
 */
export function testPaymentRequired(
  usdc: Pick<TestUsdc, "network" | "address">,
  payTo: Address,
  amount: bigint,
): PaymentRequired {
  return {
    x402Version: 2,
    resource: {
      url: "http://127.0.0.1/api-keys/key_1/top-up",
      description: "credits",
      mimeType: "application/json",
    },
    accepts: [
      {
        scheme: "exact",
        network: usdc.network,
        asset: usdc.address,
        amount: String(amount),
        payTo,
        maxTimeoutSeconds: 60,
        extra: { ...TEST_USDC_DOMAIN },
      },
    ],
  };
}

/**
 * `signPayment` for a 402's base64 `PAYMENT-REQUIRED` header value, decoded by @x402/core (for callers
 * that do not depend on it, such as the benchmarks).
 */
export function signPaymentForHeader(
  account: LocalAccount,
  paymentRequiredHeader: string,
): Promise<SignedPayment> {
  return signPayment(account, decodePaymentRequiredHeader(paymentRequiredHeader));
}
