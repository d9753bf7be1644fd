import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logRedaction } from "./log-redaction.js";

/** Logs `fields` through pino with the shared redaction; returns the line as written. */
function logged(fields: object): string {
  const lines: string[] = [];
  pino({ redact: logRedaction() }, { write: (line: string) => lines.push(line) }).info(fields, "x");
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
});
