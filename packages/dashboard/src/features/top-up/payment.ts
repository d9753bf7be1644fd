import type { RouterOutputs } from "@keyport/server";
import { type Address, getAddress, type Hex, toHex } from "viem";

/** The x402 v2 requirement a top-up must pay exactly, as `keys.topUpQuote` answers it. */
export type PaymentRequirement = RouterOutputs["keys"]["topUpQuote"]["requirement"];

/** EIP-3009's `TransferWithAuthorization`, the typed data an x402 `exact` EVM payment signs. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The authorization as the payment payload carries it: numbers as decimal strings. */
export interface TransferAuthorization {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

/** The chain id of a CAIP-2 `eip155:<id>` network, or null for anything else. */
export function evmChainId(network: string): number | null {
  const match = /^eip155:(\d{1,15})$/.exec(network);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/**
 * The authorization `from` signs to pay `requirement`, as @x402/evm's exact client builds it: to
 * `payTo`, the exact amount, valid from 0 until `maxTimeoutSeconds` from `now`, with a nonce of 32
 * random bytes (docs/dashboard.md, Top up).
 */
export function transferAuthorization(
  requirement: PaymentRequirement,
  from: Address,
  now: Date = new Date(),
): TransferAuthorization {
  const seconds = Math.floor(now.getTime() / 1000);
  return {
    from: getAddress(from),
    to: getAddress(requirement.payTo),
    value: requirement.amount,
    validAfter: "0",
    validBefore: String(seconds + requirement.maxTimeoutSeconds),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
}

/** The EIP-712 typed data of `authorization` under the token's domain (`extra.name`, `extra.version`). */
export function authorizationTypedData(
  requirement: PaymentRequirement,
  authorization: TransferAuthorization,
) {
  const chainId = evmChainId(requirement.network);
  if (chainId === null) throw new Error(`Payments on ${requirement.network} are not EVM payments.`);
  return {
    domain: {
      name: requirement.extra.name,
      version: requirement.extra.version,
      chainId,
      verifyingContract: getAddress(requirement.asset),
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: {
      from: authorization.from,
      to: authorization.to,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  } as const;
}

/**
 * The base64 x402 v2 `PaymentPayload` (what PAYMENT-SIGNATURE carries and `keys.topUp` takes as
 * `payment`): the signed authorization, and the requirement it accepts, unchanged.
 */
export function encodePayment(
  requirement: PaymentRequirement,
  authorization: TransferAuthorization,
  signature: Hex,
): string {
  const payload = { x402Version: 2, accepted: requirement, payload: { authorization, signature } };
  // Base64 of the UTF-8 bytes, as x402's own encoder does (a token's name may be any text).
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
}
