import { useMovableDate } from "@keyport/test-support/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifier, KeyportError, type VerifyResult } from "../src/index.js";
import { type Keyport, startKeyport } from "./support/keyport.js";
import { startStandIn, VALID_BODY } from "./support/stand-in.js";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A logger that keeps every line. */
function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    logger: {
      warn: (line: string) => lines.push(`warn ${line}`),
      info: (line: string) => lines.push(`info ${line}`),
    },
  };
}

describe("createVerifier against the real Keyport server", () => {
  const clock = useMovableDate();
  let keyport: Keyport;
  beforeAll(async () => {
    keyport = await startKeyport();
  });
  afterAll(() => keyport.close());

  it("answers VALID with the REST JSON shape: ISO strings, the binding window, permissions, credits, meta", async () => {
    const { key, id } = await keyport.createKey({
      name: "valid",
      rateLimit: { limit: 5, windowSeconds: 60 },
    });
    const verifier = createVerifier({ baseUrl: keyport.baseUrl });
    const result = await verifier.verify(key);
    expect(result).toEqual({
      valid: true,
      code: "VALID",
      keyId: id,
      wallet: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      expiresAt: null,
      ratelimit: {
        name: "default",
        scope: "key",
        limit: 5,
        remaining: 4,
        resetAt: expect.stringMatching(ISO),
      },
      ratelimits: [
        { name: "default", scope: "key", limit: 5, remaining: 4, resetAt: expect.stringMatching(ISO) },
      ],
      permissions: [],
      credits: null,
      meta: null,
      // The wallet's plan (the default one here: docs/plans.md), passed through as the server sends it.
      plan: { id: "free", name: "Free" },
    });
  });

  it("passes permissions and cost: INSUFFICIENT_PERMISSIONS, then USAGE_EXCEEDED, with the key's credits and meta", async () => {
    const { key, id } = await keyport.createKey({
      name: "policies",
      permissions: ["prices:read"],
      credits: { remaining: 5 },
      meta: { customerId: "cus_1", tags: ["a", 1, null] },
    });
    const verifier = createVerifier({ baseUrl: keyport.baseUrl });
    expect(await verifier.verify(key, { permissions: ["prices:write"] })).toMatchObject({
      valid: false,
      code: "INSUFFICIENT_PERMISSIONS",
      keyId: id,
      permissions: ["prices:read"],
    });
    expect(await verifier.verify(key, { permissions: ["prices:read"], cost: 4 })).toMatchObject({
      valid: true,
      code: "VALID",
      credits: { remaining: 1 },
      meta: { customerId: "cus_1", tags: ["a", 1, null] },
    });
    const spent = await verifier.verify(key, { cost: 1_000 });
    expect(spent).toMatchObject({ valid: false, code: "USAGE_EXCEEDED", keyId: id });
  });

  it("calls the fetch it is given, one request a verification", async () => {
    const { key } = await keyport.createKey({ name: "own fetch" });
    const seen: string[] = [];
    const verifier = createVerifier({
      baseUrl: keyport.baseUrl,
      fetch: (input, init) => {
        seen.push(`${init?.method} ${String(input)}`);
        return fetch(input, init);
      },
    });
    expect((await verifier.verify(key)).code).toBe("VALID");
    expect((await verifier.verify(key)).code).toBe("VALID");
    expect(seen).toEqual([
      `POST ${keyport.baseUrl}/api-keys/verify`,
      `POST ${keyport.baseUrl}/api-keys/verify`,
    ]);
  });

  it("keeps a base URL's path prefix and ignores a trailing slash", async () => {
    const { key } = await keyport.createKey({ name: "slash" });
    expect((await createVerifier({ baseUrl: `${keyport.baseUrl}/` }).verify(key)).code).toBe("VALID");
    const prefixed = createVerifier({
      baseUrl: `${keyport.baseUrl}/nothing-here/`,
      logger: recordingLogger().logger,
    });
    // The server has no route under the prefix: its 404 is the caller's mistake, not an outage.
    await expect(prefixed.verify(key)).rejects.toBeInstanceOf(KeyportError);
  });

  it("answers NOT_FOUND for an unknown or malformed key, with keyId and wallet null", async () => {
    const verifier = createVerifier({ baseUrl: keyport.baseUrl });
    for (const key of ["kp_unknown0123456789abcdefghijklmnop", "not a key", ""]) {
      const result = await verifier.verify(key);
      expect(result).toMatchObject({ valid: false, code: "NOT_FOUND", keyId: null, wallet: null });
    }
  });

  it("refuses a revoked key from the next request on", async () => {
    const { key, id } = await keyport.createKey({ name: "revoked" });
    const verifier = createVerifier({ baseUrl: keyport.baseUrl });
    expect((await verifier.verify(key)).code).toBe("VALID");
    await keyport.revokeKey(id);
    const revokedAt = Date.now();
    await expect.poll(async () => (await verifier.verify(key)).code, { timeout: 1_000 }).toBe("REVOKED");
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it("answers EXPIRED once the key's expiry passes", async () => {
    const { key } = await keyport.createKey({
      name: "expiring",
      expiresAt: new Date(Date.now() + 30_000).toISOString(),
    });
    const verifier = createVerifier({ baseUrl: keyport.baseUrl });
    expect((await verifier.verify(key)).code).toBe("VALID");
    clock.advance(30_001);
    await expect.poll(async () => (await verifier.verify(key)).code).toBe("EXPIRED");
  });

  it("sends every call as its own verification: none is shared, so concurrent calls each spend the limit", async () => {
    const { key } = await keyport.createKey({ name: "limited", rateLimit: { limit: 2, windowSeconds: 60 } });
    const verifier = createVerifier({ baseUrl: keyport.baseUrl });
    const results = await Promise.all([verifier.verify(key), verifier.verify(key), verifier.verify(key)]);
    expect(results.map((result) => result.code).sort()).toEqual(["RATE_LIMITED", "VALID", "VALID"]);
    const refused = results.find((result) => result.code === "RATE_LIMITED");
    expect(refused).toMatchObject({ valid: false, ratelimit: { limit: 2, remaining: 0 } });
  });

  it("rejects with a KeyportError (400, the key's issue, never the key) for a key longer than any key", async () => {
    const key = `kp_${"x".repeat(400)}`;
    const error = await createVerifier({ baseUrl: keyport.baseUrl })
      .verify(key)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeyportError);
    expect(error).toMatchObject({ code: "BAD_REQUEST", status: 400, issues: [{ path: ["key"] }] });
    // The server's id for the refused request, to quote to its operator.
    expect(error).toMatchObject({ requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.stringify(error) + String(error)).not.toContain(key);
  });

  it("logs once when Keyport stops answering and once when it is back, never with the key", async () => {
    const { key } = await keyport.createKey({ name: "outage" });
    const { lines, logger } = recordingLogger();
    const verifier = createVerifier({ baseUrl: keyport.baseUrl, logger, timeoutMs: 1_000 });
    expect((await verifier.verify(key)).code).toBe("VALID");
    await keyport.stop();
    try {
      const during = await Promise.all(Array.from({ length: 5 }, () => verifier.verify(key)));
      for (const result of during)
        expect(result).toEqual({ valid: false, code: "UNAVAILABLE", reason: "network", status: null });
      expect(await verifier.verify(key)).toMatchObject({ code: "UNAVAILABLE" });
      expect(lines).toEqual([
        expect.stringMatching(
          /^warn Keyport at http:\/\/127\.0\.0\.1:\d+ cannot verify keys \(no connection\)/,
        ),
      ]);
    } finally {
      await keyport.start();
    }
    expect((await verifier.verify(key)).code).toBe("VALID");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^info Keyport at http:\/\/127\.0\.0\.1:\d+ verifies keys again$/);
    for (const line of [...lines, ...keyport.logLines]) expect(line).not.toContain(key);
  });
});

describe("createVerifier when Keyport misbehaves", () => {
  it("honours timeoutMs, the answer's body included, and reports a timeout", async () => {
    // Headers at once, then a body that never ends.
    const stalled = await startStandIn((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"valid":');
    });
    const silent = await startStandIn(() => {});
    try {
      for (const standIn of [stalled, silent]) {
        const verifier = createVerifier({
          baseUrl: standIn.baseUrl,
          timeoutMs: 200,
          logger: recordingLogger().logger,
        });
        const started = performance.now();
        const result = await verifier.verify("kp_whatever");
        expect(result).toEqual({ valid: false, code: "UNAVAILABLE", reason: "timeout", status: null });
        expect(performance.now() - started).toBeGreaterThanOrEqual(190);
        expect(performance.now() - started).toBeLessThan(2_000);
      }
    } finally {
      await stalled.close();
      await silent.close();
    }
  });

  it("reports a 5xx and an answer that is not a verification as unavailable, naming the status", async () => {
    const failing = await startStandIn((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"code":"SERVICE_UNAVAILABLE","message":"The database is unavailable"}');
    });
    const strange = await startStandIn((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"valid":true,"code":"VALID","keyId":null}');
    });
    try {
      const { lines, logger } = recordingLogger();
      const results: VerifyResult[] = [
        await createVerifier({ baseUrl: failing.baseUrl, logger }).verify("kp_a"),
        await createVerifier({ baseUrl: strange.baseUrl, logger }).verify("kp_a"),
      ];
      expect(results).toEqual([
        { valid: false, code: "UNAVAILABLE", reason: "server_error", status: 503 },
        { valid: false, code: "UNAVAILABLE", reason: "bad_answer", status: 200 },
      ]);
      expect(lines).toEqual([
        expect.stringContaining("(it answered HTTP 503)"),
        expect.stringContaining("(its HTTP 200 answer is not a verification)"),
      ]);
    } finally {
      await failing.close();
      await strange.close();
    }
  });

  it("reuses its connections: 20 sequential verifications do not open 20", async () => {
    const standIn = await startStandIn((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(VALID_BODY);
    });
    try {
      const verifier = createVerifier({ baseUrl: standIn.baseUrl });
      for (let i = 0; i < 20; i++) expect((await verifier.verify("kp_a")).code).toBe("VALID");
      // Node's fetch (undici) may open a second connection right after the first exchange; never one a call.
      expect(standIn.connections()).toBeLessThanOrEqual(2);
    } finally {
      await standIn.close();
    }
  });

  it("refuses a base URL that is not a URL and a timeout that is not positive, at creation", () => {
    expect(() => createVerifier({ baseUrl: "keyport.example.com" })).toThrow(TypeError);
    expect(() => createVerifier({ baseUrl: "http://127.0.0.1", timeoutMs: 0 })).toThrow(RangeError);
  });
});
