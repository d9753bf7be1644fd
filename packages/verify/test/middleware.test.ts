import { useMovableDate } from "@keyport/test-support/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, FRAMEWORKS, type MiddlewareOptions, startBackend } from "./support/apps.js";
import { type Keyport, startKeyport } from "./support/keyport.js";

/** A GET of the backend's protected route with `headers`; the body parsed as JSON. */
async function get(backend: Backend, headers: Record<string, string> = {}) {
  const response = await fetch(backend.url, { headers });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe.each(FRAMEWORKS)("keyport() for %s against the real Keyport server", (framework) => {
  const clock = useMovableDate();
  let keyport: Keyport;
  const backends: Backend[] = [];
  const logLines: string[] = [];
  const logger = { warn: (line: string) => logLines.push(line), info: (line: string) => logLines.push(line) };
  const start = async (options: Partial<MiddlewareOptions> = {}) => {
    const backend = await startBackend(framework, { baseUrl: keyport.baseUrl, logger, ...options });
    backends.push(backend);
    return backend;
  };
  let backend: Backend;

  beforeAll(async () => {
    keyport = await startKeyport();
    backend = await start();
  });
  afterAll(async () => {
    await Promise.all(backends.map((started) => started.close()));
    await keyport?.close();
  });

  it("lets a valid key in with either header form and hands the verification to the route", async () => {
    const { key, id } = await keyport.createKey({ name: "valid" });
    for (const headers of [bearer(key), { "x-api-key": key }, { authorization: `bearer  ${key}` }]) {
      const answer = await get(backend, headers);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        keyport: {
          valid: true,
          code: "VALID",
          keyId: id,
          wallet: expect.stringMatching(/^0x/),
          expiresAt: null,
          ratelimit: null,
          ratelimits: [],
          permissions: [],
          credits: null,
          meta: null,
          plan: { id: "free", name: "Free" },
        },
      });
      // No window was consulted: no RateLimit headers.
      expect(answer.headers.get("ratelimit-limit")).toBeNull();
    }
  });

  it("answers 401 in the error envelope for a missing key, naming both headers", async () => {
    const forms: Record<string, string>[] = [
      {},
      { authorization: "Basic abc" },
      { authorization: "Bearer " },
      { "x-api-key": " " },
    ];
    for (const headers of forms) {
      const answer = await get(backend, headers);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(answer.body).toEqual({
        code: "UNAUTHORIZED",
        message: "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>",
      });
    }
  });

  it("answers 401 for an unknown, malformed or overlong key", async () => {
    for (const key of ["kp_unknown0123456789abcdefghijklmnop", "nonsense", `kp_${"x".repeat(400)}`]) {
      const answer = await get(backend, { "x-api-key": key });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ code: "UNAUTHORIZED", message: "The API key is not valid" });
    }
  });

  it("refuses a revoked key with 401 within 1 s of the revocation", async () => {
    const { key, id } = await keyport.createKey({ name: "revoked" });
    expect((await get(backend, bearer(key))).status).toBe(200);
    await keyport.revokeKey(id);
    const revokedAt = Date.now();
    await expect.poll(async () => (await get(backend, bearer(key))).status, { timeout: 1_000 }).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    expect((await get(backend, bearer(key))).body).toEqual({
      code: "UNAUTHORIZED",
      message: "The API key has been revoked",
    });
  });

  it("refuses an expired key with 401", async () => {
    const expiresAt = new Date(Date.now() + 30_000).toISOString();
    const { key } = await keyport.createKey({ name: "expiring", expiresAt });
    expect((await get(backend, bearer(key))).status).toBe(200);
    clock.advance(30_001);
    await expect.poll(async () => (await get(backend, bearer(key))).status).toBe(401);
    expect((await get(backend, bearer(key))).body).toEqual({
      code: "UNAUTHORIZED",
      message: "The API key has expired",
    });
  });

  it("answers 429 with RateLimit-* and Retry-After once the key's window is spent", async () => {
    const { key } = await keyport.createKey({ name: "limited", rateLimit: { limit: 2, windowSeconds: 60 } });
    const first = await get(backend, bearer(key));
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-limit")).toBe("2");
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    expect(Number(first.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
    expect(first.headers.get("retry-after")).toBeNull();
    expect(first.body.keyport.ratelimit).toMatchObject({ limit: 2, remaining: 1 });

    expect((await get(backend, bearer(key))).status).toBe(200);
    const refused = await get(backend, bearer(key));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-limit")).toBe("2");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    const reset = Number(refused.headers.get("ratelimit-reset"));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(refused.headers.get("retry-after")).toBe(String(reset));
    // The message names the limit that refused and when to retry, as Retry-After says.
    expect(refused.body).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: `Rate limit "default" exceeded (limit 2); retry in ${reset} s`,
    });
    expect(refused.headers.get("cache-control")).toBe("no-store");
    // The IETF draft's headers beside them, the limit's name as the policy's.
    expect(first.headers.get("ratelimit-policy")).toBe('"default";q=2');
    expect(first.headers.get("ratelimit")).toMatch(/^"default";r=1;t=\d+$/);
    expect(refused.headers.get("ratelimit")).toBe(`"default";r=0;t=${reset}`);
  });

  it("names a wallet-wide limit that refuses as the wallet's", async () => {
    const { key } = await keyport.createKey({ name: "under a wallet limit" });
    await keyport.setWalletLimits([{ name: "shared", limit: 1, windowSeconds: 600 }]);
    try {
      expect((await get(backend, bearer(key))).status).toBe(200);
      const refused = await get(backend, bearer(key));
      expect(refused.status).toBe(429);
      const retry = Math.max(1, Number(refused.headers.get("retry-after")));
      expect(refused.body).toEqual({
        code: "TOO_MANY_REQUESTS",
        message: `The wallet's rate limit "shared" exceeded (limit 1); retry in ${retry} s`,
      });
    } finally {
      await keyport.setWalletLimits([]);
    }
  });

  it("reports RateLimit-Remaining as it is when a key out of credits is refused (a refusal spends no window)", async () => {
    const { key } = await keyport.createKey({
      name: "metered and limited",
      credits: { remaining: 1 },
      rateLimit: { limit: 5, windowSeconds: 600 },
    });
    const first = await get(backend, bearer(key));
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("4");
    for (let i = 0; i < 2; i++) {
      const refused = await get(backend, bearer(key));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: "TOO_MANY_REQUESTS", message: "The API key has no credits left" });
      expect(refused.headers.get("ratelimit-limit")).toBe("5");
      expect(refused.headers.get("ratelimit-remaining")).toBe("4");
      expect(refused.headers.get("retry-after")).toBeNull();
    }
  });

  it("applies a route's named limits with their cost per request, all-or-nothing", async () => {
    const metered = await start({ tokensFromHeader: true });
    const { key } = await keyport.createKey({
      name: "model api",
      rateLimits: [
        { name: "requests", limit: 100, windowSeconds: 600, autoApply: true },
        { name: "tokens", limit: 1000, windowSeconds: 600, autoApply: false },
      ],
    });
    const first = await get(metered, { ...bearer(key), "x-tokens": "700" });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"requests";q=100, "tokens";q=1000');
    expect(first.headers.get("ratelimit")).toMatch(/^"tokens";r=300;t=\d+$/);
    const refused = await get(metered, { ...bearer(key), "x-tokens": "301" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit")).toMatch(/^"tokens";r=300;t=\d+$/);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(refused.body.message).toBe(
      `Rate limit "tokens" exceeded (limit 1000); retry in ${Math.max(1, Number(refused.headers.get("retry-after")))} s`,
    );
    // The refusal spent no request either.
    const after = await get(metered, { ...bearer(key), "x-tokens": "0" });
    expect(after.body.keyport.ratelimits.map((l: { remaining: number }) => l.remaining)).toEqual([98, 300]);
  });

  it("answers 403 when the key lacks a permission the middleware requires, and lets a holder in", async () => {
    const guarded = await start({ permissions: ["prices:read"] });
    const holder = await keyport.createKey({ name: "reader", permissions: ["prices:*"] });
    const other = await keyport.createKey({ name: "writer", permissions: ["prices:write"] });
    const allowed = await get(guarded, bearer(holder.key));
    expect(allowed.status).toBe(200);
    expect(allowed.body.keyport).toMatchObject({ valid: true, code: "VALID", permissions: ["prices:*"] });
    const refused = await get(guarded, bearer(other.key));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: "FORBIDDEN",
      message: "The API key lacks a permission this request needs",
    });
    expect(refused.headers.get("www-authenticate")).toBeNull();
  });

  it("answers 429 without Retry-After once the key's credits are spent, each request costing `cost`", async () => {
    const metered = await start({ cost: 2 });
    const { key } = await keyport.createKey({
      name: "metered",
      credits: { remaining: 3 },
      meta: { plan: "pro" },
    });
    const first = await get(metered, bearer(key));
    expect(first.status).toBe(200);
    expect(first.body.keyport).toMatchObject({ credits: { remaining: 1 }, meta: { plan: "pro" } });
    const refused = await get(metered, bearer(key));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: "TOO_MANY_REQUESTS", message: "The API key has no credits left" });
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(refused.headers.get("ratelimit-limit")).toBeNull();
  });

  it("answers 429 with Retry-After until the next refill once a daily-refilled key's credits are spent", async () => {
    const metered = await start({});
    const { key } = await keyport.createKey({
      name: "refilled daily",
      credits: { remaining: 1, refill: { interval: "daily", amount: 10 } },
    });
    expect((await get(metered, bearer(key))).status).toBe(200);
    const refused = await get(metered, bearer(key));
    expect(refused.status).toBe(429);
    const untilMidnight = Math.ceil((Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Math.abs(retryAfter - untilMidnight)).toBeLessThanOrEqual(2);
  });

  it("answers 500 and logs Keyport's issues (never the key) when its own options are out of range", async () => {
    const misconfigured = await start({ cost: 5_000 });
    const { key } = await keyport.createKey({ name: "misconfigured" });
    const answer = await get(misconfigured, bearer(key));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ code: "INTERNAL_SERVER_ERROR", message: "Internal server error" });
    expect(logLines.at(-1)).toMatch(
      /^Keyport refused the middleware's verification request \(BAD_REQUEST: .*"cost"/,
    );
    for (const line of logLines) expect(line).not.toContain(key);
  });
});
