import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { z } from "zod";

// tRPC's answer to a mutation, with superjson's `json` wrapper.
const nonceAnswer = z.object({
  result: z.object({ data: z.object({ json: z.object({ nonce: z.string() }) }) }),
});

/** A fresh random wallet (viem local account). */
export function newAccount(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** Asks the server for a nonce through the proxy's `/trpc/auth.nonce`, as the dashboard does. */
export async function nonceThroughProxy(proxyUrl: string, origin: string): Promise<string> {
  const response = await fetch(`${proxyUrl}/trpc/auth.nonce`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: "{}",
  });
  const body = nonceAnswer.safeParse(await response.json());
  if (response.status !== 200 || !body.success) throw new Error(`nonce failed with ${response.status}`);
  return body.data.result.data.json.nonce;
}

/** A signed EIP-4361 message for `domain` (the dashboard's host), as the page would send it. */
export async function signedMessage(
  account: PrivateKeyAccount,
  domain: string,
  nonce: string,
  expirationTime?: Date,
): Promise<{ message: string; signature: string }> {
  const message = createSiweMessage({
    address: account.address,
    domain,
    uri: `http://${domain}/`,
    version: "1",
    chainId: 1,
    nonce,
    issuedAt: new Date(),
    expirationTime,
    statement: "Sign in to Keyport",
  });
  return { message, signature: await account.signMessage({ message }) };
}
