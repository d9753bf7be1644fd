import { request } from "@keyport/test-support/http";
import { TEST_USDC_UNIT } from "@keyport/test-support/test-usdc";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import type { WrittenBalance } from "../../src/credits/balance-writer.js";
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
