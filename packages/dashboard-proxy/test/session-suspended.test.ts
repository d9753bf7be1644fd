import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningKeyport, startKeyport } from "./support/keyport-server.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";
import { newAccount, nonceThroughProxy, signedMessage } from "./support/siwe.js";

// A wallet the deployment's operator suspended signs in through the proxy (docs/operator.md#suspension):
// the server's 403, its sentence and its reason reach the page as they are, and no cookie is set.

const HOST = "dashboard.test";
const ORIGIN = `http://${HOST}`;
const operator = newAccount();

let keyport: RunningKeyport;
let proxy: RunningProxy;

beforeAll(async () => {
  keyport = await startKeyport({ SIWE_DOMAINS: HOST, OPERATOR_WALLETS: operator.address });
  proxy = await startProxy({ KEYPORT_URL: keyport.url, PUBLIC_ORIGIN: ORIGIN });
});
afterAll(async () => {
  await proxy.close();
  await keyport.close();
});

async function signInThroughProxy(account: ReturnType<typeof newAccount>) {
  const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
  return proxy.open("/api/session", {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify(await signedMessage(account, HOST, nonce)),
  });
}

it("passes the server's 403 WALLET_SUSPENDED on with its sentence, and sets no cookie", async () => {
  const owner = newAccount();
  expect((await signInThroughProxy(owner)).status).toBe(200);
  // The operator's session, straight from the server (the operator API is not the page's).
  const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
  const signed = await fetch(`${keyport.url}/auth/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(await signedMessage(operator, HOST, nonce)),
  });
  const { token } = (await signed.json()) as { token: string };
  const suspended = await fetch(`${keyport.url}/operator/wallets/${owner.address}/suspend`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ reason: "abuse" }),
  });
  expect(suspended.status).toBe(200);

  const refused = await signInThroughProxy(owner);
  expect(refused.status).toBe(403);
  expect(await refused.json()).toEqual({
    code: "FORBIDDEN",
    reason: "WALLET_SUSPENDED",
    message:
      "This wallet is suspended by this deployment: it cannot sign in. Ask the deployment's operator why",
  });
  expect(refused.headers.getSetCookie()).toEqual([]);
});
