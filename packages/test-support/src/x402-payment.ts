import { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import type { LocalAccount } from "viem";

/** A signed x402 v2 payment: the payload, and the same as the base64 `PAYMENT-SIGNATURE` header value. */
export interface SignedPayment {
  payload: PaymentPayload;
  header: string;
}

/**
 * Signs an x402 v2 "exact" EVM payment (an EIP-3009 `TransferWithAuthorization`) for the first of
 * `paymentRequired.accepts`, as a real x402 client does: @x402/core's client with @x402/evm's exact client
 * scheme, the account signing locally. A fresh random nonce each call, valid from 10 minutes ago until
 * `maxTimeoutSeconds` from now. Spend controls are off: the test token is not one of x402's known assets.
 * @example const { header } = await signPayment(payer, decodePaymentRequiredHeader(response.headers.get("payment-required") ?? ""));
 */
export async function signPayment(
  account: LocalAccount,
  paymentRequired: PaymentRequired,
): Promise<SignedPayment> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  client.setSpendControls(false);
  const payload = await client.createPaymentPayload(paymentRequired);
  return { payload, header: encodePaymentSignatureHeader(payload) };
}
