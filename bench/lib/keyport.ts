import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";

/** A signed-in session of a fresh random wallet. */
export interface Session {
  token: string;
  wallet: string;
}

async function postJson(
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

function stringField(json: unknown, field: string): string {
  if (typeof json === "object" && json !== null && field in json) {
    const value: unknown = Reflect.get(json, field);
    if (typeof value === "string") return value;
  }
  throw new Error(`response has no string "${field}"`);
}

/** Signs in to the Keyport server at `baseUrl` with a new random wallet (domain `localhost`, chain 1). */
export async function signIn(baseUrl: string): Promise<Session> {
  const account = privateKeyToAccount(generatePrivateKey());
  const nonce = await postJson(`${baseUrl}/auth/nonce`, undefined);
  if (nonce.status !== 200) throw new Error(`nonce failed with ${nonce.status}`);
  const message = createSiweMessage({
    address: account.address,
    domain: "localhost",
    uri: "http://localhost/login",
    version: "1",
    chainId: 1,
    nonce: stringField(nonce.json, "nonce"),
    issuedAt: new Date(),
  });
  const signature = await account.signMessage({ message });
  const verified = await postJson(`${baseUrl}/auth/verify`, { message, signature });
  if (verified.status !== 200) throw new Error(`sign-in failed with ${verified.status}`);
  return { token: stringField(verified.json, "token"), wallet: stringField(verified.json, "wallet") };
}

/** Creates a key over REST (with `extra` fields of `POST /api-keys`, e.g. credits); returns its id and secret. */
export async function createKey(
  baseUrl: string,
  session: Session,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; secret: string }> {
  const created = await postJson(`${baseUrl}/api-keys`, { ...extra, name }, session.token);
  if (created.status !== 201) throw new Error(`create key failed with ${created.status}`);
  const apiKey: unknown =
    typeof created.json === "object" && created.json !== null ? Reflect.get(created.json, "apiKey") : null;
  return { id: stringField(apiKey, "id"), secret: stringField(created.json, "key") };
}

/** Whether the server's OpenAPI document lists `method path` (e.g. "post", "/api-keys/verify"). */
export async function documentsRoute(baseUrl: string, method: string, path: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  const document: unknown = await response.json();
  const paths: unknown =
    typeof document === "object" && document !== null ? Reflect.get(document, "paths") : null;
  const item: unknown = typeof paths === "object" && paths !== null ? Reflect.get(paths, path) : null;
  return typeof item === "object" && item !== null && method.toLowerCase() in item;
}
