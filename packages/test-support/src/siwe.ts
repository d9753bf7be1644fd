import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { request } from "./http.js";

/** Fields of the EIP-4361 message a test may change to provoke a failure. */
export interface SiweOverrides {
  domain?: string;
  chainId?: number;
  nonce?: string;
  issuedAt?: Date;
  expirationTime?: Date;
  notBefore?: Date;
  uri?: string;
}

/** A fresh random wallet (viem local account). */
export function newAccount(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** Asks the server for a nonce (`POST /auth/nonce`). */
export async function fetchNonce(baseUrl: string): Promise<string> {
  const { status, body } = await request(baseUrl, "POST", "/auth/nonce");
  if (
    status !== 200 ||
    typeof body !== "object" ||
    body === null ||
    !("nonce" in body) ||
    typeof body.nonce !== "string"
  ) {
    throw new Error(`nonce request failed with ${status}`);
  }
  return body.nonce;
}

/** Builds an EIP-4361 message for `localhost`, chain 1, issued now, unless overridden. */
export function buildSiweMessage(
  account: PrivateKeyAccount,
  nonce: string,
  overrides: SiweOverrides = {},
): string {
  return createSiweMessage({
    address: account.address,
    domain: overrides.domain ?? "localhost",
    uri: overrides.uri ?? "http://localhost/login",
    version: "1",
    chainId: overrides.chainId ?? 1,
    nonce: overrides.nonce ?? nonce,
    issuedAt: overrides.issuedAt ?? new Date(),
    expirationTime: overrides.expirationTime,
    notBefore: overrides.notBefore,
    statement: "Sign in to Keyport",
  });
}

/** Signs `message` with `account` and posts it to `/auth/verify`; returns the raw response. */
export async function postVerify(baseUrl: string, account: PrivateKeyAccount, message: string) {
  const signature = await account.signMessage({ message });
  return request(baseUrl, "POST", "/auth/verify", { body: { message, signature } });
}

/**
 * Signs in over real HTTP with a viem local account (new random one by default) and returns the session.
 * @example const { token, wallet } = await signIn(server.baseUrl);
 */
export async function signIn(
  baseUrl: string,
  account: PrivateKeyAccount = newAccount(),
): Promise<{ token: string; wallet: string; account: PrivateKeyAccount }> {
  const message = buildSiweMessage(account, await fetchNonce(baseUrl));
  const { status, body } = await postVerify(baseUrl, account, message);
  if (
    status !== 200 ||
    typeof body !== "object" ||
    body === null ||
    !("token" in body) ||
    typeof body.token !== "string"
  ) {
    throw new Error(`sign-in failed with ${status}`);
  }
  return { token: body.token, wallet: account.address, account };
}
