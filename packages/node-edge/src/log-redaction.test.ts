import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logHooks, logRedaction } from "./log-redaction.js";
import { redactUrl } from "./redact-url.js";

/** Logs `fields` through pino with the shared redaction; returns the line as written. */
function logged(fields: object): string {
  const lines: string[] = [];
  pino({ redact: logRedaction(), hooks: logHooks() }, { write: (line: string) => lines.push(line) }).info(
    fields,
    "x",
  );
  return lines.join("");
}

describe("log redaction", () => {
  it("censors credentials in headers, wherever the headers are logged", () => {
    const line = logged({
      req: { headers: { authorization: "Bearer kps_secret", cookie: "session=abc" } },
      res: { headers: { "set-cookie": "session=def" } },
      upstream: {
        headers: {
          authorization: "Bearer up_1",
          "x-cg-demo-api-key": "cg_demo",
          "x-cg-pro-api-key": "cg_pro",
        },
      },
      authorization: "Bearer top",
    });
    expect(line).not.toMatch(/kps_secret|session=abc|session=def|up_1|cg_demo|cg_pro|Bearer top/);
    expect(line).toContain("[redacted]");
  });

  it("censors an x402 payment header or field, a bearer instrument until settled", () => {
    const line = logged({
      req: { headers: { "payment-signature": "eyJ4NDAy_sig", "x-payment": "eyJ4NDAy_v1" } },
      upstream: { headers: { "payment-signature": "eyJ4NDAy_up" } },
      payment: "eyJ4NDAy_top",
      input: { payment: "eyJ4NDAy_input" },
    });
    expect(line).not.toContain("eyJ4NDAy");
    expect(line).toContain("[redacted]");
  });

  it("censors keys, tokens, signatures, secrets and the upstream keys, top-level and one level down", () => {
    const line = logged({
      key: "kp_x",
      apiKey: "ak_1",
      token: "t_1",
      signature: "0xabc",
      secret: "s_1",
      message: "siwe message",
      input: "procedure input",
      body: "raw body",
      COINGECKO_API_KEY: "cg_key",
      settings: { AGENT_API_KEY: "agent_key", apiKey: "ak_2", token: "t_2", key: "kp_y", secret: "s_2" },
    });
    expect(line).not.toMatch(
      /kp_x|ak_1|t_1|0xabc|s_1|siwe message|procedure input|raw body|cg_key|agent_key|ak_2|t_2|kp_y|s_2/,
    );
  });

  it("keeps an error's message readable", () => {
    expect(logged({ err: new Error("connection refused") })).toContain("connection refused");
  });

  it("shows a URL as scheme and host only, in fields, nested fields, errors and the message text", () => {
    const lines: string[] = [];
    const logger = pino(
      { level: "trace", redact: logRedaction(), hooks: logHooks() },
      { write: (line: string) => lines.push(line) },
    );
    const cause = new Error(
      'HTTP request failed.\nURL: https://base-mainnet.infura.io/v3/sk_live_provider\nRequest body: {"method":"eth_getCode","params":["0xabc"]}',
    );
    logger.trace({ rpc: "https://user:pw1@rpc.example:8545/v3/key1?token=q1" }, "at trace");
    logger.info({ settings: { REDIS_URL: "rediss://:pw2@cache.example:6380/2" } }, "nested");
    logger.error({ err: new Error("settle failed", { cause }) }, "error path");
    logger.warn("connecting to postgres://app:pw3@db.example:5432/keyport?sslmode=require.");
    const text = lines.join("\n");
    expect(text).not.toMatch(/pw1|pw2|pw3|key1|q1|sk_live_provider|eth_getCode|0xabc|\/keyport|sslmode|user/);
    expect(text).toContain("https://rpc.example:8545");
    expect(text).toContain("rediss://cache.example:6380");
    expect(text).toContain("https://base-mainnet.infura.io");
    expect(text).toContain("postgres://db.example:5432.");
    // No stack frames: a trace names files and, from a client, the request it sent.
    expect(text).not.toMatch(/"stack":"[^"]/);
  });

  it("reduces a URL setting to scheme and host, and a value that is no URL to a placeholder", () => {
    expect(redactUrl("postgres://app:pw@db.internal:5432/keyport?sslmode=require")).toBe(
      "postgres://db.internal:5432",
    );
    expect(redactUrl("https://rpc.example/v3/key")).toBe("https://rpc.example");
    expect(redactUrl("memory:")).toBe("memory:");
    expect(redactUrl("sk_not_a_url")).toBe("[not a URL]");
  });
});
