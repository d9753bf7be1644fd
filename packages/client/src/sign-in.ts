import type { TRPCClient } from "@trpc/client";
import type { Address, Hex } from "viem";
import { createSiweMessage } from "viem/siwe";
import type { AppRouter, RouterOutputs } from "./types.js";

/** The session `signIn` answers: `token` is the bearer secret, keep it private. */
export type KeyportSession = RouterOutputs["auth"]["verify"];

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

/**
 * Signs in with Ethereum through a Keyport tRPC client: asks the server for a nonce, builds the EIP-4361
 * message, signs it and verifies it. The client is not changed: pass the answer's `token` to the client that
 * should act for the wallet (`createKeyportClient({ url, token })`). A refused sign-in rejects with the
 * server's `TRPCClientError` (`toKeyportError` reads it).
 * @example
 * const { token } = await signIn(createKeyportClient({ url }), { account }, { chainId: 1, domain, uri });
 */
export async function signIn(
  client: TRPCClient<AppRouter>,
  signer: SiweSigner,
  options: SignInOptions,
): Promise<KeyportSession> {
  const address = signerAddress(signer);
  const { nonce } = await client.auth.nonce.mutate();
  const message = buildSiweMessage(address, nonce, options);
  const signature = await signWith(signer, message);
  return client.auth.verify.mutate({ message, signature });
}
