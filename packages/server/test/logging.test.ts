import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { signIn } from "@keyport/test-support/siwe";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.js";
import { useLoggedServer } from "./support/logged-server.js";

describe("request logs", () => {
  const server = useLoggedServer();

  it("write one line per request with method, route, status and duration, and no secret", async () => {
    const { token, wallet } = await signIn(server.baseUrl);
    const created = await request(server.baseUrl, "POST", "/api-keys", { token, body: { name: "logged" } });
    const { key, apiKey } = created.body as { key: string; apiKey: { id: string } };
    await request(server.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, { token, body: {} });
    await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token });
    const requestLines = server.lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "request");
    expect(requestLines.map((entry) => `${entry.method} ${entry.route} ${entry.status}`)).toEqual([
      "POST /auth/nonce 200",
      "POST /auth/verify 200",
      "POST /api-keys 201",
      "POST /api-keys/{id}/roll 201",
      "GET /api-keys/{wallet} 200",
    ]);
    expect(requestLines.every((entry) => typeof entry.durationMs === "number")).toBe(true);
    const all = server.lines.join("\n");
    expect(all).not.toContain(token);
    expect(all).not.toContain(key);
    expect(all).not.toMatch(/kp_[0-9A-Za-z]{38}/);
    expect(all).not.toContain("Sign in to Keyport");
  });

  it("leave verifications out at info (the hot path), and never log the key", async () => {
    const { token } = await signIn(server.baseUrl);
    const created = await request(server.baseUrl, "POST", "/api-keys", { token, body: { name: "quiet" } });
    const { key } = created.body as { key: string };
    const before = server.lines.length;
    await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key } });
    await request(server.baseUrl, "POST", "/trpc/keys.verify", { body: { json: { key } } });
    expect(server.lines.slice(before)).toEqual([]);
    expect(server.lines.join("\n")).not.toContain(key);
  });

  it("redact tokens, keys, signatures and messages in logged objects", () => {
    const captured: string[] = [];
    const logger = createLogger("info", logSink(captured));
    logger.info(
      {
        req: { headers: { authorization: "Bearer kps_secret" } },
        key: "kp_x",
        token: "t",
        signature: "0xabc",
        message: "siwe",
      },
      "x",
    );
    expect(captured.join("")).not.toMatch(/kps_secret|kp_x|"t"|0xabc|siwe/);
  });
});
