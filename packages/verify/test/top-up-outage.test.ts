import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, FRAMEWORKS, startBackend } from "./support/apps.js";
import { type StandIn, startStandIn, VALID_BODY } from "./support/stand-in.js";

// The agent loop when Keyport's top-up misbehaves, on cue: a stand-in Keyport whose verification says the
// key is out of credits until it is paid. The loop against the real server and chain: agent-loop.test.ts.

const KEY = "kp_outage0123456789abcdefghijklmnop";
const KEY_ID = "key_0123456789abcdefghij";
const EXHAUSTED_BODY = JSON.stringify({
  ...JSON.parse(VALID_BODY),
  valid: false,
  code: "USAGE_EXCEEDED",
  credits: { remaining: 0, purchased: 0, refillAt: null },
});
/** A PAYMENT-SIGNATURE as the middleware reads it (Keyport, not the middleware, checks the payment). */
const SIGNATURE = btoa(JSON.stringify({ x402Version: 2, accepted: { maxTimeoutSeconds: 60 } }));
const SETTLED = btoa(JSON.stringify({ success: true, transaction: "0x01", network: "eip155:31337" }));

type TopUpAnswer = "unavailable" | "payments off" | "slow success" | "stall";

describe.each(FRAMEWORKS)("keyport() for %s with topUp when Keyport's top-up fails", (framework) => {
  let keyport: StandIn;
  let answer: TopUpAnswer = "unavailable";
  let paid = false;
  const topUps: IncomingMessage[] = [];
  const logLines: string[] = [];
  const logger = { warn: (line: string) => logLines.push(line) };
  const backends: Backend[] = [];
  const start = async (options: { onUnavailable?: "allow" } = {}) => {
    const backend = await startBackend(framework, {
      baseUrl: keyport.baseUrl,
      logger,
      timeoutMs: 200,
      topUp: { amount: "5" },
      ...options,
    });
    backends.push(backend);
    return backend;
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader("content-type", "application/json");
    if (req.url === "/api-keys/verify") {
      res.end(paid ? VALID_BODY : EXHAUSTED_BODY);
      return;
    }
    topUps.push(req);
    switch (answer) {
      case "unavailable":
        res.statusCode = 503;
        res.end(JSON.stringify({ code: "SERVICE_UNAVAILABLE", message: "The chain is not answering" }));
        return;
      case "payments off":
        res.statusCode = 501;
        res.end(JSON.stringify({ code: "NOT_IMPLEMENTED", message: "Payments are off on this server" }));
        return;
      case "slow success":
        // Longer than the verifier's 200 ms: a settlement takes blocks.
        setTimeout(() => {
          paid = true;
          res.setHeader("payment-response", SETTLED);
          res.end(JSON.stringify({ topUp: { amount: "5" } }));
        }, 600);
        return;
      case "stall":
        return;
    }
  }

  beforeAll(async () => {
    keyport = await startStandIn(handle);
  });
  afterAll(async () => {
    await Promise.all(backends.map((backend) => backend.close()));
    await keyport?.close();
  });

  const call = (backend: Backend, headers: Record<string, string> = {}) =>
    fetch(backend.url, { headers: { "x-api-key": KEY, ...headers } });

  it("answers 503 when Keyport cannot take the top-up, even under onUnavailable allow", async () => {
    answer = "unavailable";
    paid = false;
    for (const backend of [await start(), await start({ onUnavailable: "allow" })]) {
      for (const headers of [{}, { "payment-signature": SIGNATURE }] as Record<string, string>[]) {
        const response = await call(backend, headers);
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({
          code: "SERVICE_UNAVAILABLE",
          message: "The API key cannot be checked right now: retry shortly",
        });
      }
    }
  });

  it("answers an unpaid request 503 once Keyport's top-up outlasts the verifier's timeout", async () => {
    answer = "stall";
    paid = false;
    const began = Date.now();
    const response = await call(await start());
    expect(response.status).toBe(503);
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it("keeps the plain 429 when Keyport declines the top-up itself, and logs why without the key", async () => {
    answer = "payments off";
    paid = false;
    const response = await call(await start());
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: "The API key has no credits left",
    });
    expect(logLines.at(-1)).toBe(
      `Keyport at ${new URL(keyport.baseUrl).origin} takes no top-ups: Payments are off on this server. ` +
        "Remove topUp from the middleware or turn payments on",
    );
    for (const line of logLines) expect(line).not.toContain(KEY);
  });

  it("waits for a paid top-up beyond the verifier's timeout, forwarding the key and the payment", async () => {
    answer = "slow success";
    paid = false;
    topUps.length = 0;
    const response = await call(await start(), { "payment-signature": SIGNATURE });
    expect(response.status).toBe(200);
    expect(response.headers.get("payment-response")).toBe(SETTLED);
    const [forwarded] = topUps;
    expect(forwarded?.method).toBe("POST");
    expect(forwarded?.url).toBe(`/api-keys/${KEY_ID}/top-up`);
    expect(forwarded?.headers["x-api-key"]).toBe(KEY);
    expect(forwarded?.headers["payment-signature"]).toBe(SIGNATURE);
  });
});

describe("keyport()'s topUp option", () => {
  it("refuses an amount that is not whole tokens as a decimal string when the middleware is built", async () => {
    for (const amount of ["", "five", "-1", "1e3", "1."]) {
      await expect(
        startBackend("hono", { baseUrl: "http://127.0.0.1:1", topUp: { amount } }),
      ).rejects.toThrow('topUp.amount must be whole tokens as a decimal string, e.g. "5"');
    }
  });
});
