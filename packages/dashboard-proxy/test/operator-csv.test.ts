import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, setCookies } from "./support/cookies.js";
import { type RunningKeyport, startKeyport } from "./support/keyport-server.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";
import { newAccount, nonceThroughProxy, signedMessage } from "./support/siwe.js";

const HOST = "dashboard.test:3001";
const ORIGIN = `http://${HOST}`;
const CSV_HEADER =
  "settled_at,kind,wallet,key_id,payer,amount,asset,network,credits,plan_id,days,transaction";

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

/** Signs `account` in through the proxy; returns its sign-in answer and cookie header. */
async function signIn(account: PrivateKeyAccount) {
  const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
  const response = await proxy.open("/api/session", {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify(await signedMessage(account, HOST, nonce)),
  });
  expect(response.status).toBe(200);
  return { json: await response.json(), cookie: cookieHeader(setCookies(response)) };
}

describe("the session says whether its wallet is an operator's", () => {
  it("answers operator: true for a wallet in OPERATOR_WALLETS, at sign-in and after", async () => {
    const { json, cookie } = await signIn(operator);
    expect(json).toEqual({ wallet: operator.address, expiresAt: expect.any(String), operator: true });
    const who = await proxy.call("/api/session", { headers: { cookie } });
    expect(JSON.parse(who.text)).toMatchObject({ wallet: operator.address, operator: true });
  });

  it("answers operator: false for any other wallet", async () => {
    const other = newAccount();
    const { json, cookie } = await signIn(other);
    expect(json.operator).toBe(false);
    const who = await proxy.call("/api/session", { headers: { cookie } });
    expect(JSON.parse(who.text)).toMatchObject({ wallet: other.address, operator: false });
  });
});

describe("GET /api/operator/payments.csv", () => {
  it("streams the server's CSV file for an operator's session, with its range", async () => {
    const { cookie } = await signIn(operator);
    const from = "2026-01-01T00:00:00.000Z";
    const to = "2026-02-01T00:00:00.000Z";
    const answer = await proxy.call(`/api/operator/payments.csv?from=${from}&to=${to}`, {
      headers: { cookie },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(answer.headers["content-disposition"]).toBe(
      'attachment; filename="keyport-payments-2026-01-01-2026-02-01.csv"',
    );
    expect(answer.text).toBe(`${CSV_HEADER}\r\n`);
  });

  it("passes the server's refusals on: a bad range 400, a wallet that is not an operator 403", async () => {
    const { cookie } = await signIn(operator);
    const bad = await proxy.call("/api/operator/payments.csv?from=yesterday", { headers: { cookie } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ code: "BAD_REQUEST" });

    const other = await signIn(newAccount());
    const refused = await proxy.call("/api/operator/payments.csv", { headers: { cookie: other.cookie } });
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain(CSV_HEADER);
  });

  it("is 401 without a session and 403 from another site, without a byte of the file", async () => {
    const none = await proxy.call("/api/operator/payments.csv");
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toMatchObject({ code: "UNAUTHORIZED" });

    const { cookie } = await signIn(operator);
    const foreign = await proxy.call("/api/operator/payments.csv", {
      headers: { cookie, "sec-fetch-site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain(CSV_HEADER);
  });
});
