import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, type SetCookie, setCookies } from "./support/cookies.js";
import { type RunningKeyport, startKeyport } from "./support/keyport-server.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";
import { newAccount, nonceThroughProxy, signedMessage } from "./support/siwe.js";

const HOST = "dashboard.test:3001";
const ORIGIN = `http://${HOST}`;
const OTHER_SITE = "https://app.example";

let keyport: RunningKeyport;
let proxy: RunningProxy;

beforeAll(async () => {
  keyport = await startKeyport({ SIWE_DOMAINS: HOST });
  proxy = await startProxy({ KEYPORT_URL: keyport.url, PUBLIC_ORIGIN: ORIGIN, ALLOWED_ORIGINS: OTHER_SITE });
});
afterAll(async () => {
  await proxy.close();
  await keyport.close();
});

/** Signs in through `POST /api/session` as the dashboard does; returns the answer and its cookies. */
async function signIn(expirationTime?: Date) {
  const account = newAccount();
  const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
  const body = await signedMessage(account, HOST, nonce, expirationTime);
  const response = await proxy.open("/api/session", {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const cookies = setCookies(response);
  return { account, response, json: await response.json(), cookies, cookie: cookieHeader(cookies) };
}

function named(cookies: SetCookie[], name: string): SetCookie {
  const cookie = cookies.find((candidate) => candidate.name === name);
  if (cookie === undefined) throw new Error(`no ${name} cookie`);
  return cookie;
}

describe("sign-in through POST /api/session", () => {
  it("keeps the token in an httpOnly SameSite=Strict cookie and answers only wallet, expiry and the operator role", async () => {
    const { account, response, json, cookies } = await signIn();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(json).toEqual({ wallet: account.address, expiresAt: expect.any(String), operator: false });

    const session = named(cookies, "keyport_session");
    expect(session.value).toMatch(/^kps_/);
    expect(session.attributes.has("httponly")).toBe(true);
    expect(session.attributes.get("samesite")).toBe("Strict");
    expect(session.attributes.get("path")).toBe("/");
    expect(session.attributes.has("secure")).toBe(false);
    const maxAge = Number(session.attributes.get("max-age"));
    const untilExpiry = (Date.parse(json.expiresAt) - Date.now()) / 1_000;
    expect(Math.abs(maxAge - untilExpiry)).toBeLessThan(5);

    const marker = named(cookies, "keyport_signed_in");
    expect(marker.value).toBe("1");
    expect(marker.attributes.has("httponly")).toBe(false);
    expect(marker.attributes.get("samesite")).toBe("Strict");

    // The token never reaches a body or a log line.
    expect(JSON.stringify(json)).not.toContain(session.value);
    expect(proxy.logLines.join("\n")).not.toContain(session.value);
  });

  it("caps the cookie's lifetime at the message's expirationTime", async () => {
    const tenMinutes = new Date(Date.now() + 10 * 60_000);
    const { response, json, cookies } = await signIn(tenMinutes);
    expect(response.status).toBe(200);
    expect(Date.parse(json.expiresAt)).toBeLessThanOrEqual(tenMinutes.getTime());
    const maxAge = Number(named(cookies, "keyport_session").attributes.get("max-age"));
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
  });

  it("answers a bad signature with the server's 401 and sets no cookie", async () => {
    const account = newAccount();
    const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
    const { message } = await signedMessage(account, HOST, nonce);
    const other = await signedMessage(newAccount(), HOST, nonce);
    const response = await proxy.open("/api/session", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ message, signature: other.signature }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHORIZED" });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("refuses a malformed body with 400 and another media type with 415", async () => {
    const post = (body: string, type = "application/json") =>
      proxy.call("/api/session", { method: "POST", headers: { origin: ORIGIN, "content-type": type }, body });
    expect((await post("{")).status).toBe(400);
    expect((await post(JSON.stringify({ message: "x", signature: "nope" }))).status).toBe(400);
    expect((await post("message=x", "application/x-www-form-urlencoded")).status).toBe(415);
  });
});

describe("signing in again", () => {
  it("ends the session the new cookie replaces", async () => {
    const first = await signIn();
    const oldToken = named(first.cookies, "keyport_session").value;
    const account = newAccount();
    const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
    const response = await proxy.open("/api/session", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json", cookie: first.cookie },
      body: JSON.stringify(await signedMessage(account, HOST, nonce)),
    });
    expect(response.status).toBe(200);
    expect(named(setCookies(response), "keyport_session").value).not.toBe(oldToken);
    const old = await fetch(`${keyport.url}/auth/session`, {
      headers: { authorization: `Bearer ${oldToken}` },
    });
    expect(old.status).toBe(401);
  });
});

describe("GET /api/session and the /trpc forward with only the cookie", () => {
  it("says who is signed in, and creates and lists keys through /trpc", async () => {
    const { account, cookie } = await signIn();
    const who = await proxy.call("/api/session", { headers: { cookie } });
    expect(who.status).toBe(200);
    expect(JSON.parse(who.text)).toMatchObject({ wallet: account.address });

    const created = await proxy.call("/trpc/keys.create", {
      method: "POST",
      headers: { origin: ORIGIN, cookie, "content-type": "application/json" },
      body: JSON.stringify({ json: { name: "through the proxy" } }),
    });
    expect(created.status).toBe(200);
    const secret: unknown = JSON.parse(created.text).result.data.json.key;
    expect(typeof secret).toBe("string");

    const input = encodeURIComponent(JSON.stringify({ json: { wallet: account.address } }));
    const listed = await proxy.call(`/trpc/keys.list?input=${input}`, {
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(listed.status).toBe(200);
    const keys: unknown[] = JSON.parse(listed.text).result.data.json.keys;
    expect(keys).toEqual([expect.objectContaining({ name: "through the proxy" })]);
    expect(listed.text).not.toContain(String(secret));
  });

  it("answers 401 without a cookie, clearing both cookies", async () => {
    const response = await proxy.open("/api/session");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHORIZED" });
    const cleared = setCookies(response);
    expect(cleared.map((cookie) => [cookie.name, cookie.attributes.get("max-age")])).toEqual([
      ["keyport_session", "0"],
      ["keyport_signed_in", "0"],
    ]);
  });
});

describe("sign-out through DELETE /api/session", () => {
  it("ends the session on the server and clears the cookies", async () => {
    const { cookies, cookie } = await signIn();
    const token = named(cookies, "keyport_session").value;
    const response = await proxy.open("/api/session", {
      method: "DELETE",
      headers: { origin: ORIGIN, cookie },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(setCookies(response).every((set) => set.attributes.get("max-age") === "0")).toBe(true);

    // The server itself no longer knows the token, and the proxy says signed out.
    const atServer = await fetch(`${keyport.url}/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(atServer.status).toBe(401);
    expect((await proxy.call("/api/session", { headers: { cookie } })).status).toBe(401);
  });

  it("answers 200 without a cookie too", async () => {
    const response = await proxy.call("/api/session", { method: "DELETE", headers: { origin: ORIGIN } });
    expect(response.status).toBe(200);
  });
});

describe("origin rules of the cookie routes", () => {
  it("refuses a cross-site POST with 403 before calling the server", async () => {
    const response = await proxy.call("/api/session", {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(403);
  });

  it("never gives ALLOWED_ORIGINS the cookie routes", async () => {
    const { cookie } = await signIn();
    const headers = { origin: OTHER_SITE, cookie, "content-type": "application/json" };
    expect((await proxy.call("/api/session", { headers })).status).toBe(403);
    expect((await proxy.call("/trpc/auth.nonce", { method: "POST", headers, body: "{}" })).status).toBe(403);
  });

  it("refuses a cookie POST without Origin, and a cookie GET that says it came from another site", async () => {
    const { cookie } = await signIn();
    const created = await proxy.call("/trpc/keys.create", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ json: { name: "forged" } }),
    });
    expect(created.status).toBe(403);
    const sessionPost = await proxy.call("/api/session", { method: "DELETE", headers: { cookie } });
    expect(sessionPost.status).toBe(403);
    for (const site of ["cross-site", "same-site"]) {
      const who = await proxy.call("/api/session", { headers: { cookie, "sec-fetch-site": site } });
      expect(who.status).toBe(403);
    }
    // The session is untouched: the same cookie from the dashboard still works.
    const who = await proxy.call("/api/session", { headers: { cookie, "sec-fetch-site": "same-origin" } });
    expect(who.status).toBe(200);
  });
});

describe("cookie attributes by PUBLIC_ORIGIN", () => {
  it("adds Secure when PUBLIC_ORIGIN is https", async () => {
    const secure = await startProxy({ KEYPORT_URL: keyport.url, PUBLIC_ORIGIN: "https://keys.example" });
    try {
      const response = await secure.open("/api/session", {
        method: "DELETE",
        headers: { origin: "https://keys.example" },
      });
      const cookies = setCookies(response);
      expect(cookies).toHaveLength(2);
      expect(cookies.every((cookie) => cookie.attributes.has("secure"))).toBe(true);
    } finally {
      await secure.close();
    }
  });
});

describe("refused sign-ins through the proxy", () => {
  // The server limits refused sign-ins per client address (NONCE_RATE_LIMIT, 10 a minute): through the
  // proxy that address must be the browser's, or one careless (or hostile) browser would push every
  // other dashboard user's mistyped sign-in to 429.
  let limited: RunningKeyport;
  let limitedProxy: RunningProxy;
  beforeAll(async () => {
    limited = await startKeyport({ SIWE_DOMAINS: HOST, NONCE_RATE_LIMIT: "10/60" });
    limitedProxy = await startProxy({ KEYPORT_URL: limited.url, PUBLIC_ORIGIN: ORIGIN });
  });
  afterAll(async () => {
    await limitedProxy.close();
    await limited.close();
  });

  it("are counted per browser: one browser past the limit leaves another's refusal a 401", async () => {
    let invented = 0;
    // A sign-in with a nonce the server never issued: refused, and counted against its client.
    const refuse = async (address: string) => {
      const nonce = `invented${String(++invented).padStart(8, "0")}`;
      const body = await signedMessage(newAccount(), HOST, nonce);
      const response = await limitedProxy.open("/api/session", {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json", "x-forwarded-for": address },
        body: JSON.stringify(body),
      });
      await response.body?.cancel();
      return response.status;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await refuse("203.0.113.10"));
    expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 401));
    expect(statuses[10]).toBe(429);
    expect(await refuse("203.0.113.11")).toBe(401);
  });
});
