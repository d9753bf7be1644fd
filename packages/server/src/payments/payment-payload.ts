import { createHash } from "node:crypto";
import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { getAddress, isAddress } from "viem";
import { z } from "zod";

const address = z.string().refine((value) => isAddress(value, { strict: false }));
const uint = z.string().regex(/^\d{1,78}$/);

/** The parts of an x402 v2 `exact` EIP-3009 payment Keyport reads (the rest goes to the facilitator as sent). */
const exactPayment = z.object({
  x402Version: z.literal(2),
  accepted: z.object({
    scheme: z.string(),
    network: z.string(),
    asset: z.string(),
    amount: z.string(),
    payTo: z.string(),
    maxTimeoutSeconds: z.number(),
  }),
  payload: z.object({
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
    authorization: z.object({
      from: address,
      to: address,
      value: uint,
      validAfter: uint,
      validBefore: uint,
      nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
    }),
  }),
});

/** A decoded PAYMENT-SIGNATURE: what the facilitator gets, and what Keyport records. */
export interface DecodedPayment {
  payload: PaymentPayload;
  accepted: z.infer<typeof exactPayment>["accepted"];
  authorization: z.infer<typeof exactPayment>["payload"]["authorization"] & { from: `0x${string}` };
  /** Lowercase hex SHA-256 of the header value as sent. */
  signatureHash: string;
}

/**
 * Decodes a PAYMENT-SIGNATURE value (base64 JSON `PaymentPayload`) into an EIP-3009 `exact`
 * payment, or null when it is not one (malformed base64 or JSON, another scheme's payload).
 */
export function decodePayment(header: string): DecodedPayment | null {
  let decoded: PaymentPayload;
  try {
    decoded = decodePaymentSignatureHeader(header);
  } catch {
    return null;
  }
  const parsed = exactPayment.safeParse(decoded);
  if (!parsed.success) return null;
  const { authorization } = parsed.data.payload;
  return {
    payload: decoded,
    accepted: parsed.data.accepted,
    authorization: { ...authorization, from: getAddress(authorization.from) },
    signatureHash: createHash("sha256").update(header).digest("hex"),
  };
}

const sameAddress = (a: string, b: string) =>
  isAddress(a, { strict: false }) && isAddress(b, { strict: false }) && getAddress(a) === getAddress(b);

/**
 * Why `payment` does not pay exactly `requirement`, or null when it does: the accepted requirement
 * must equal Keyport's on scheme, network, asset, amount, payTo and maxTimeoutSeconds (its resource
 * may differ), and the authorization must move that amount to payTo, be valid now and for a few
 * seconds more (its settlement takes a block or two).
 */
export function mismatchOf(payment: DecodedPayment, requirement: PaymentRequirements, nowMs: number) {
  const { accepted, authorization } = payment;
  if (accepted.scheme !== requirement.scheme) return "The payment's scheme is not exact";
  if (accepted.network !== requirement.network) return "The payment is for another network";
  if (!sameAddress(accepted.asset, requirement.asset)) return "The payment is in another asset";
  if (accepted.amount !== requirement.amount || authorization.value !== requirement.amount) {
    return "The payment is for another amount";
  }
  if (!sameAddress(accepted.payTo, requirement.payTo) || !sameAddress(authorization.to, requirement.payTo)) {
    return "The payment is to another address";
  }
  if (accepted.maxTimeoutSeconds !== requirement.maxTimeoutSeconds) {
    return "The payment's maxTimeoutSeconds differs";
  }
  const now = BigInt(Math.floor(nowMs / 1000));
  if (BigInt(authorization.validBefore) < now + 6n) return "The payment authorization has expired";
  if (BigInt(authorization.validAfter) > now) return "The payment authorization is not valid yet";
  return null;
}
