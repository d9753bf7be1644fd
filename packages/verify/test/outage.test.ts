import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, FRAMEWORKS, startBackend } from "./support/apps.js";
import { type Keyport, startKeyport } from "./support/keyport.js";
import { type StandIn, startStandIn } from "./support/stand-in.js";

/** A GET of the backend's protected route with the key as a bearer token. */
async function get(backend: Backend, key: string) {
  const response = await fetch(backend.url, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const UNAVAILABLE_BODY = {
  code: "SERVICE_UNAVAILABLE",
  message: "The API key cannot be checked right now: retry shortly",
};

describe.each(FRAMEWORKS)("keyport() for %s when Keyport cannot answer", (framework) => {
  let keyport: Keyport;
  let stalled: StandIn;
  const backends: Backend[] = [];
  const logLines: string[] = [];
  const logger = {
    warn: (line: string) => logLines.push(`warn ${line}`),
    info: (line: string) => logLines.push(`info ${line}`),
  };
  const keys: string[] = [];

  beforeAll(async () => {
    keyport = await startKeyport();
    stalled = await startStandIn(() => {});
  });
  afterAll(async () => {
    await Promise.all(backends.map((backend) => backend.close()));
    await stalled?.close();
    await keyport?.close();
  });

  it("answers 503 under deny and lets the request in under allow while Keyport is stopped, and recovers by itself", async () => {
    const deny = await startBackend(framework, { baseUrl: keyport.baseUrl, logger });
    const allow = await startBackend(framework, { baseUrl: keyport.baseUrl, logger, onUnavailable: "allow" });
    backends.push(deny, allow);
    const { key } = await keyport.createKey({ name: "outage" });
    keys.push(key);
    expect((await get(deny, key)).status).toBe(200);
    expect((await get(allow, key)).status).toBe(200);

    await keyport.stop();
    try {
      for (let i = 0; i < 3; i++) {
        const denied = await get(deny, key);
        expect(denied.status).toBe(503);
        expect(denied.body).toEqual(UNAVAILABLE_BODY);
        expect(denied.headers.get("cache-control")).toBe("no-store");
        const allowed = await get(allow, key);
        expect(allowed.status).toBe(200);
        expect(allowed.body).toEqual({
          keyport: { valid: false, code: "UNAVAILABLE", reason: "network", status: null },
        });
      }
      // One warning per middleware for the whole outage, however many requests it refused or let in.
      expect(logLines.filter((line) => line.startsWith("warn"))).toHaveLength(2);
    } finally {
      await keyport.start();
    }

    // Nobody restarts the middleware: the next request after Keyport is back is verified again.
    const back = await get(deny, key);
    expect(back.status).toBe(200);
    expect(back.body.keyport).toMatchObject({ valid: true, code: "VALID" });
    expect((await get(allow, key)).body.keyport).toMatchObject({ valid: true, code: "VALID" });
    expect(logLines.filter((line) => line.startsWith("info"))).toEqual([
      expect.stringMatching(/verifies keys again$/),
      expect.stringMatching(/verifies keys again$/),
    ]);
  });

  it("honours timeoutMs: a Keyport that never answers costs the request at most that long", async () => {
    const deny = await startBackend(framework, { baseUrl: stalled.baseUrl, logger, timeoutMs: 300 });
    const allow = await startBackend(framework, {
      baseUrl: stalled.baseUrl,
      logger,
      timeoutMs: 300,
      onUnavailable: "allow",
    });
    backends.push(deny, allow);
    const key = "kp_timeoutkey0123456789abcdefghijkl";
    keys.push(key);
    let started = performance.now();
    const denied = await get(deny, key);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(denied).toMatchObject({ status: 503, body: UNAVAILABLE_BODY });
    started = performance.now();
    const allowed = await get(allow, key);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(allowed).toMatchObject({
      status: 200,
      body: { keyport: { valid: false, code: "UNAVAILABLE", reason: "timeout", status: null } },
    });
    expect(logLines.at(-1)).toMatch(/cannot verify keys \(no answer within 300 ms\)/);
  });

  it("never writes a key in a log line, the middleware's or Keyport's", () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(keyport.logLines.length).toBeGreaterThan(0);
    for (const line of [...logLines, ...keyport.logLines]) {
      for (const key of keys) expect(line).not.toContain(key);
    }
  });
});
