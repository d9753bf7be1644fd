import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { RpcFailure } from "./rpc-failure.js";

/** A facilitator's word on a payment: valid, or refused with its reason (x402's `invalidReason`). */
export type VerifyOutcome = { ok: true } | { ok: false; reason: string };

/**
 * A settlement's result: the transaction that moved the tokens, or a refusal. A refusal may still
 * name a transaction (one that reverted).
 */
export type SettleOutcome = { ok: true; transaction: string } | { ok: false; reason: string };

/**
 * Verifies and settles x402 payments: in this process (settler-in-process.ts) or through an x402
 * facilitator over HTTP (settler-url.ts). Both throw `SettlementUnavailableError` when the
 * facilitator or the chain cannot be reached (a settle that throws may or may not have happened).
 */
export interface Settler {
  verify(payload: PaymentPayload, requirement: PaymentRequirements): Promise<VerifyOutcome>;
  settle(payload: PaymentPayload, requirement: PaymentRequirements): Promise<SettleOutcome>;
}

/**
 * The facilitator or the chain did not answer: a 503, and the payment stays open. Its `cause` says
 * only what failed (an HTTP status, a JSON-RPC code): an HTTP client's own error names the URL, which
 * may hold a provider key, and the request body, which holds the payment (docs/security.md).
 */
export class SettlementUnavailableError extends Error {
  override name = "SettlementUnavailableError";
  constructor(cause: unknown) {
    super("payment settlement unavailable", {
      cause: typeof cause === "string" ? new Error(cause) : new RpcFailure(cause),
    });
  }
}
