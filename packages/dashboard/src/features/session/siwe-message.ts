import { type Address, getAddress } from "viem";
import { createSiweMessage } from "viem/siwe";

/** How long a dashboard session may last at most: the message's `expirationTime` caps it on the server. */
export const SIGN_IN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What the EIP-4361 message is built from; `host` and `origin` are the page's own. */
export interface SignInMessageInput {
  address: string;
  chainId: number | undefined;
  nonce: string;
  host: string;
  origin: string;
  now: Date;
}

/**
 * The EIP-4361 message the wallet signs. Its domain is the page's host (the server checks it against
 * `SIWE_DOMAINS`); a wallet on no known chain signs for chain 1.
 */
export function buildSignInMessage(input: SignInMessageInput): string {
  const address: Address = getAddress(input.address);
  return createSiweMessage({
    address,
    chainId: input.chainId ?? 1,
    domain: input.host,
    uri: input.origin,
    version: "1",
    nonce: input.nonce,
    statement: "Sign in to Keyport to manage the API keys of this wallet.",
    issuedAt: input.now,
    expirationTime: new Date(input.now.getTime() + SIGN_IN_LIFETIME_MS),
  });
}
