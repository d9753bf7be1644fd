import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, FRAMEWORKS, type MiddlewareOptions, startBackend } from "./support/apps.js";
import { type Keyport, startKeyport } from "./support/keyport.js";

/** A GET of the backend's protected route with `key` and any more headers. */
async function get(backend: Backend, key: string, headers: Record<string, string> = {}) {
  const response = await fetch(backend.url, { headers: { authorization: `Bearer ${key}`, ...headers } });
  return { status: response.status, body: await response.json() };
}

const REFUSED = { code: "FORBIDDEN", message: "The API key may not be used from this address" };

// One Keyport for every framework: the keys are the same, only the backends differ.
let keyport: Keyport;
let loopbackKey: string;
let publicKey: string;

beforeAll(async () => {
  keyport = await startKeyport();
  loopbackKey = (await keyport.createKey({ name: "loopback", allowedIps: ["127.0.0.0/8"] })).key;
  publicKey = (await keyport.createKey({ name: "public", allowedIps: ["203.0.113.0/24", "2001:db8::/32"] }))
    .key;
});
afterAll(() => keyport?.close());

// The backends listen on 127.0.0.1, so the socket's peer is 127.0.0.1 (docs/verifying-keys.md#ip-allow-lists).
describe.each(FRAMEWORKS)("keyport() for %s sends the client's address", (framework) => {
  const backends: Backend[] = [];
  const start = async (options: Partial<MiddlewareOptions> = {}) => {
    const backend = await startBackend(framework, {
      baseUrl: keyport.baseUrl,
      logger: { warn() {} },
      ...options,
    });
    backends.push(backend);
    return backend;
  };
  let direct: Backend;
  let proxied: Backend;

  beforeAll(async () => {
    [direct, proxied] = await Promise.all([start(), start({ trustProxy: true })]);
  });
  afterAll(() => Promise.all(backends.map((backend) => backend.close())));

  it("without trustProxy: the socket's peer, and a spoofed X-Forwarded-For changes nothing", async () => {
    expect((await get(direct, loopbackKey)).status).toBe(200);
    expect((await get(direct, loopbackKey, { "x-forwarded-for": "203.0.113.9" })).status).toBe(200);
    for (const spoof of [undefined, "203.0.113.9", "198.51.100.1, 203.0.113.9"]) {
      const answer = await get(direct, publicKey, spoof === undefined ? {} : { "x-forwarded-for": spoof });
      expect(answer).toEqual({ status: 403, body: REFUSED });
    }
  });

  it("with trustProxy: the last X-Forwarded-For entry, never one the client wrote before it", async () => {
    expect((await get(proxied, publicKey, { "x-forwarded-for": "203.0.113.9" })).status).toBe(200);
    expect((await get(proxied, publicKey, { "x-forwarded-for": "10.9.9.9, 203.0.113.200" })).status).toBe(
      200,
    );
    expect((await get(proxied, publicKey, { "x-forwarded-for": "[2001:db8::5]:4433" })).status).toBe(200);
    expect(await get(proxied, publicKey, { "x-forwarded-for": "203.0.113.9, 10.9.9.9" })).toEqual({
      status: 403,
      body: REFUSED,
    });
    expect(await get(proxied, publicKey, { "x-forwarded-for": "unknown" })).toEqual({
      status: 403,
      body: REFUSED,
    });
    // No header: the peer, as without trustProxy.
    expect((await get(proxied, loopbackKey)).status).toBe(200);
    expect((await get(proxied, publicKey)).status).toBe(403);
  });

  it("lets a key without an allow-list in from anywhere", async () => {
    const { key } = await keyport.createKey({ name: "anywhere" });
    expect((await get(direct, key)).status).toBe(200);
    expect((await get(proxied, key, { "x-forwarded-for": "unknown" })).status).toBe(200);
  });
});
