import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, setCookies } from "./support/cookies.js";
import { type RunningKeyport, startKeyport } from "./support/keyport-server.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";
import { newAccount, nonceThroughProxy, signedMessage } from "./support/siwe.js";

const HOST = "dashboard.test:3001";
const TWO_SESSIONS = {
  code: "BAD_REQUEST",
  message: "The request carries more than one session cookie; clear this site's cookies and sign in again",
};

let keyport: RunningKeyport;
beforeAll(async () => {
  keyport = await startKeyport({ SIWE_DOMAINS: HOST });
});
afterAll(() => keyport.close());

/** Signs a new wallet in through the proxy as the dashboard does; answers its wallet and Set-Cookies. */
async function signIn(proxy: RunningProxy, origin: string) {
  const account = newAccount();
  const nonce = await nonceThroughProxy(proxy.url, origin);
  const response = await proxy.open("/api/session", {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify(await signedMessage(account, HOST, nonce)),
  });
  expect(response.status).toBe(200);
  return { wallet: account.address, cookies: setCookies(response) };
}

/** The value of the session cookie `name` among Set-Cookies. */
function tokenOf(cookies: ReturnType<typeof setCookies>, name: string): string {
  const value = cookies.find((cookie) => cookie.name === name)?.value;
  if (value === undefined) throw new Error(`no ${name}`);
  return value;
}

describe("a request carrying two session cookies (cookie tossing)", () => {
  const ORIGIN = `http://${HOST}`;
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy({ KEYPORT_URL: keyport.url, PUBLIC_ORIGIN: ORIGIN });
  });
  afterAll(() => proxy.close());

  it("is refused with 400 on the session routes, the /trpc forward and chat, whichever cookie comes first", async () => {
    const victim = await signIn(proxy, ORIGIN);
    const attacker = await signIn(proxy, ORIGIN);
    // The browser sends the planted cookie (a longer Path) first, then the dashboard's own.
    const tossed = `keyport_session=${tokenOf(attacker.cookies, "keyport_session")}; ${cookieHeader(victim.cookies)}`;
    const headers = { origin: ORIGIN, cookie: tossed };

    const who = await proxy.call("/api/session", { headers });
    expect(who.status).toBe(400);
    expect(JSON.parse(who.text)).toEqual(TWO_SESSIONS);
    expect(who.headers["set-cookie"]).toBeUndefined();

    const create = await proxy.call("/trpc/keys.create", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ json: { name: "victim's key" } }),
    });
    expect(create.status).toBe(400);
    expect(JSON.parse(create.text)).toEqual(TWO_SESSIONS);

    const chat = await proxy.call("/api/chat", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status).toBe(400);

    // The attacker's wallet got no key; the victim's one cookie still works.
    const input = encodeURIComponent(JSON.stringify({ json: { wallet: attacker.wallet } }));
    const attackerKeys = await proxy.call(`/trpc/keys.list?input=${input}`, {
      headers: { origin: ORIGIN, cookie: cookieHeader(attacker.cookies) },
    });
    expect(attackerKeys.status).toBe(200);
    expect(attackerKeys.text).not.toContain("victim's key");
    const alone = await proxy.call("/api/session", {
      headers: { origin: ORIGIN, cookie: cookieHeader(victim.cookies) },
    });
    expect(JSON.parse(alone.text)).toMatchObject({ wallet: victim.wallet });
  });
});

describe("the session cookie under an https PUBLIC_ORIGIN", () => {
  const ORIGIN = `https://${HOST}`;
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy({ KEYPORT_URL: keyport.url, PUBLIC_ORIGIN: ORIGIN });
  });
  afterAll(() => proxy.close());

  it("is __Host-keyport_session: Secure, Path=/, no Domain; a planted keyport_session is ignored", async () => {
    const victim = await signIn(proxy, ORIGIN);
    const session = victim.cookies.find((cookie) => cookie.name === "__Host-keyport_session");
    expect(session?.attributes.has("secure")).toBe(true);
    expect(session?.attributes.get("path")).toBe("/");
    expect(session?.attributes.has("domain")).toBe(false);
    expect(session?.attributes.has("httponly")).toBe(true);
    expect(victim.cookies.some((cookie) => cookie.name === "keyport_session")).toBe(false);

    const attacker = await signIn(proxy, ORIGIN);
    const planted = `keyport_session=${tokenOf(attacker.cookies, "__Host-keyport_session")}`;
    const who = await proxy.call("/api/session", {
      headers: { origin: ORIGIN, cookie: `${planted}; ${cookieHeader(victim.cookies)}` },
    });
    expect(who.status).toBe(200);
    expect(JSON.parse(who.text)).toMatchObject({ wallet: victim.wallet });

    const out = await proxy.open("/api/session", {
      method: "DELETE",
      headers: { origin: ORIGIN, cookie: cookieHeader(victim.cookies) },
    });
    const cleared = setCookies(out).find((cookie) => cookie.name === "__Host-keyport_session");
    expect(cleared?.attributes.get("max-age")).toBe("0");
    expect(cleared?.attributes.has("secure")).toBe(true);
  });

  it("refuses two __Host-keyport_session cookies too", async () => {
    const one = await signIn(proxy, ORIGIN);
    const two = await signIn(proxy, ORIGIN);
    const res = await proxy.call("/api/session", {
      headers: { origin: ORIGIN, cookie: `${cookieHeader(two.cookies)}; ${cookieHeader(one.cookies)}` },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(TWO_SESSIONS);
  });
});
