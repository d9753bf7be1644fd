import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setCookies } from "./support/cookies.js";
import { type KeyportStandIn, startKeyportStandIn } from "./support/keyport-stand-in.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";

const ORIGIN = "http://dashboard.test:3001";
const TOKEN = "kps_0123456789abcdefghijABCDEFGHIJ01";
const COOKIE = `keyport_session=${TOKEN}; keyport_signed_in=1`;

let keyport: KeyportStandIn;
let proxy: RunningProxy;

beforeAll(async () => {
  keyport = await startKeyportStandIn();
});
afterAll(() => keyport.close());
afterEach(async () => {
  keyport.requests.length = 0;
  keyport.behave({
    kind: "answer",
    status: 200,
    body: '{"result":{"data":{"json":[]}}}',
    headers: { "content-type": "application/json" },
  });
  await proxy.close();
});

async function start(env: Record<string, string> = {}) {
  proxy = await startProxy({
    KEYPORT_URL: keyport.url,
    PUBLIC_ORIGIN: ORIGIN,
    KEYPORT_TIMEOUT_MS: "300",
    ...env,
  });
}

const post = (body = "{}", headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
  body,
});

describe("the /trpc allow-list", () => {
  it("answers 404 for procedures the page may not call, without asking the server", async () => {
    await start();
    for (const path of [
      "/trpc/auth.verify",
      "/trpc/auth.logout",
      "/trpc/keys.verify",
      "/trpc/keys.list,auth.verify?batch=1",
      "/trpc/nothing",
      "/trpc/",
    ]) {
      const response = await proxy.call(path, post());
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.text)).toMatchObject({ code: "NOT_FOUND" });
    }
    expect(keyport.requests).toEqual([]);
  });

  it("answers 400 for a percent-encoded procedure path", async () => {
    await start();
    for (const path of ["/trpc/auth%2Everify", "/trpc/keys.list%2Cauth.verify?batch=1"]) {
      expect((await proxy.raw(path, "POST")).status, path).toBe(400);
    }
    expect(keyport.requests).toEqual([]);
  });

  it("forwards an allowed batch with its query as the server reads it", async () => {
    await start();
    const input = encodeURIComponent('{"0":{"json":null},"1":{"json":null}}');
    const response = await proxy.call(`/trpc/keys.list,usage.get?batch=1&input=${input}`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(response.status).toBe(200);
    expect(keyport.requests.map((request) => request.url)).toEqual([
      `/trpc/keys.list,usage.get?batch=1&input=${input}`,
    ]);
  });

  it("forwards the key page's recent verifications query, with the session as Bearer", async () => {
    await start();
    const input = encodeURIComponent('{"0":{"json":{"id":"key_0123456789abcdefgh"}}}');
    const path = `/trpc/keys.verifications?batch=1&input=${input}`;
    const response = await proxy.call(path, { headers: { "sec-fetch-site": "same-origin", cookie: COOKIE } });
    expect(response.status).toBe(200);
    expect(keyport.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
      [path, `Bearer ${TOKEN}`],
    ]);
  });

  it("answers other methods with 405", async () => {
    await start();
    expect((await proxy.call("/trpc/keys.list", { method: "PUT", headers: { origin: ORIGIN } })).status).toBe(
      405,
    );
  });
});

describe("what crosses to the server", () => {
  it("sends the cookie's token as Bearer, strips the page's Authorization and cookies", async () => {
    await start();
    await proxy.call(
      "/trpc/keys.create",
      post('{"json":{"name":"a"}}', { cookie: COOKIE, authorization: "Bearer kps_forged" }),
    );
    const [seen] = keyport.requests;
    expect(seen?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen?.headers.cookie).toBeUndefined();
    expect(seen?.headers.origin).toBeUndefined();
    expect(seen?.body).toBe('{"json":{"name":"a"}}');
    expect(proxy.logLines.join("\n")).not.toContain(TOKEN);
  });

  it("sends no Authorization at all without a cookie", async () => {
    await start();
    await proxy.call("/trpc/keys.list", { headers: { authorization: "Bearer kps_from_the_page_1234567" } });
    expect(keyport.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("replaces X-Forwarded-For with the client address it derived from TRUSTED_PROXIES", async () => {
    await start();
    // The test connects from 127.0.0.1, a trusted proxy by default: the right-most other entry is the client.
    await proxy.call("/trpc/auth.nonce", post("{}", { "x-forwarded-for": "203.0.113.9, 198.51.100.7" }));
    expect(keyport.requests[0]?.headers["x-forwarded-for"]).toBe("198.51.100.7");
    await proxy.close();

    await start({ TRUSTED_PROXIES: "" });
    await proxy.call("/trpc/auth.nonce", post("{}", { "x-forwarded-for": "203.0.113.9" }));
    expect(keyport.requests[1]?.headers["x-forwarded-for"]).toBe("127.0.0.1");
  });

  it("counts the per-IP limit by that derived address", async () => {
    await start({ RATE_LIMIT_PER_MINUTE: "1" });
    const from = (ip: string) => proxy.call("/trpc/auth.nonce", post("{}", { "x-forwarded-for": ip }));
    expect((await from("203.0.113.1")).status).toBe(200);
    expect((await from("203.0.113.2")).status).toBe(200);
    expect((await from("203.0.113.1")).status).toBe(429);
  });

  it("refuses a body over 64 KiB with 413", async () => {
    await start();
    const big = JSON.stringify({ json: { name: "x".repeat(70 * 1024) } });
    expect((await proxy.call("/trpc/keys.create", post(big))).status).toBe(413);
    expect(keyport.requests).toEqual([]);
  });
});

describe("what comes back", () => {
  it("passes status and body as the server wrote them, with only content-type, cache-control and vary", async () => {
    await start();
    const body = '{"error":{"json":{"message":"No such key","code":-32004}}}';
    keyport.behave({
      kind: "answer",
      status: 404,
      body,
      headers: {
        "content-type": "application/json",
        "cache-control": "no-store",
        vary: "trpc-accept",
        "set-cookie": "server=1",
        "x-powered-by": "keyport",
        "access-control-allow-origin": "*",
      },
    });
    const response = await proxy.open("/trpc/keys.revoke", post());
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(body);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("vary")).toBe("trpc-accept");
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("clears the cookies when the server answers 401 for the cookie's token", async () => {
    await start();
    keyport.behave({
      kind: "answer",
      status: 401,
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    const response = await proxy.open("/trpc/keys.list", { headers: { cookie: COOKIE } });
    expect(response.status).toBe(401);
    expect(setCookies(response).map((cookie) => cookie.attributes.get("max-age"))).toEqual(["0", "0"]);
  });

  it("waits for a top-up's settlement past KEYPORT_TIMEOUT_MS, and passes its payment headers on", async () => {
    await start();
    keyport.behave({
      kind: "answer",
      status: 402,
      body: '{"error":{"json":{"message":"PAYMENT-SIGNATURE is required","code":-32000}}}',
      headers: { "content-type": "application/json", "payment-required": "eyJ4NDAyVmVyc2lvbiI6Mn0=" },
      delayMs: 800,
    });
    const topUp = await proxy.open("/trpc/keys.topUp", post());
    expect(topUp.status).toBe(402);
    expect(topUp.headers.get("payment-required")).toBe("eyJ4NDAyVmVyc2lvbiI6Mn0=");
    await topUp.text();
    const list = await proxy.call("/trpc/keys.list");
    expect(list.status).toBe(504);
  });

  it("answers 504 when the server is too slow and 502 when it is unreachable", async () => {
    await start();
    keyport.behave({ kind: "hang" });
    const slow = await proxy.call("/trpc/keys.list");
    expect(slow.status).toBe(504);
    expect(JSON.parse(slow.text)).toMatchObject({ code: "GATEWAY_TIMEOUT" });
    await proxy.close();

    await start({ KEYPORT_URL: "http://127.0.0.1:9" });
    const down = await proxy.call("/trpc/keys.list");
    expect(down.status).toBe(502);
    expect(JSON.parse(down.text)).toEqual({
      code: "BAD_GATEWAY",
      message: "The Keyport server failed to answer",
      requestId: down.headers["x-request-id"],
    });
  });
});
