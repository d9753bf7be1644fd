import type { Address, Hex } from "viem";
import { createSiweMessage } from "viem/siwe";

/**
 * Who signs the EIP-4361 message: a viem local account (`privateKeyToAccount(...)`), or any address plus a
 * function that signs a text message with it (a wallet client, an injected wallet...).
 */
export type SiweSigner =
  | { account: { address: Address; signMessage(args: { message: string }): Promise<Hex> } }
  | { address: Address; signMessage(message: string): Promise<Hex> };

/** The fields of the EIP-4361 message that describe the dashboard; the server checks domain and chain id. */
export interface SignInOptions {
  /** EIP-155 chain id, one of the server's `SIWE_CHAIN_IDS`. */
  chainId: number;
  /** host[:port] of the dashboard, one of the server's `SIWE_DOMAINS`. */
  domain: string;
  /** The URI being signed in to, e.g. `https://app.example.com/login`. */
  uri: string;
  /** The line the wallet shows the user; default "Sign in to Keyport". */
  statement?: string;
  /** Optional end of the message's validity. */
  expirationTime?: Date;
}

/** The signing address of a signer. */
export function signerAddress(signer: SiweSigner): Address {
  return "account" in signer ? signer.account.address : signer.address;
}

/** Signs `message` with the signer. */
export function signWith(signer: SiweSigner, message: string): Promise<Hex> {
  return "account" in signer ? signer.account.signMessage({ message }) : signer.signMessage(message);
}

/** Builds the EIP-4361 message for `address` with the server's `nonce`, issued now. */
export function buildSiweMessage(address: Address, nonce: string, options: SignInOptions): string {
  return createSiweMessage({
    address,
    chainId: options.chainId,
    domain: options.domain,
    uri: options.uri,
    nonce,
    version: "1",
    issuedAt: new Date(),
    statement: options.statement ?? "Sign in to Keyport",
    expirationTime: options.expirationTime,
  });
}
