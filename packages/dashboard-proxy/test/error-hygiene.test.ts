import { afterEach, describe, expect, it } from "vitest";
import type { EnvSource } from "../src/index.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";

// Names a prober would send to see them echoed; none may come back.
const PROBE = "x_probe_7f3a_name";

let proxy: RunningProxy;
afterEach(() => proxy.close());

async function start(env: EnvSource = {}) {
  // No upstream is reached: every request here is refused or answered by the proxy itself.
  proxy = await startProxy({
    COINGECKO_BASE_URL: "http://127.0.0.1:9",
    AGENT_URL: "http://127.0.0.1:9/v1",
    ...env,
  });
}

describe("the proxy's JSON errors", () => {
  it("never quote an unknown parameter's or field's name", async () => {
    await start({ CHAT_ACCESS: "public" });
    const query = await proxy.call(`/api/prices/simple?ids=bitcoin&vs_currencies=usd&${PROBE}=1`);
    expect(query.status).toBe(400);
    expect(JSON.parse(query.text)).toEqual({
      code: "BAD_REQUEST",
      message: "Invalid request",
      issues: [{ path: [], message: "Unknown parameters or fields are not accepted" }],
    });

    const chat = await proxy.call("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi", [PROBE]: 1 }], [`${PROBE}2`]: 1 }),
    });
    expect(chat.status).toBe(400);
    expect(chat.text).not.toContain(PROBE);
    expect(proxy.transcript()).not.toContain(PROBE);
  });

  it("carry X-Content-Type-Options: nosniff, whatever refused the request", async () => {
    await start({ RATE_LIMIT_PER_MINUTE: "1" });
    const answers = [
      await proxy.call(`/api/prices/simple?${PROBE}=1`), // 400, and the limit's one request
      await proxy.call("/api/meta"), // 429
      await proxy.call("/api/meta", { headers: { origin: "https://evil.example" } }), // 403
      await proxy.call("/healthz", { method: "DELETE" }), // 404
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 429, 403, 404]);
    for (const answer of answers) {
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    }
  });
});

describe("the per-client limit", () => {
  const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

  it("counts IPv6 clients by their /64: rotating addresses inside it does not reset the count", async () => {
    // The test connects from 127.0.0.1, a trusted proxy by default, so X-Forwarded-For names the client.
    await start({ RATE_LIMIT_PER_MINUTE: "2" });
    expect((await proxy.call("/api/meta", from("2001:db8:0:1::1"))).status).toBe(200);
    expect((await proxy.call("/api/meta", from("2001:db8:0:1:ffff::2"))).status).toBe(200);
    expect((await proxy.call("/api/meta", from("2001:0db8:0000:0001::3"))).status).toBe(429);
    // The next /64 is another client; IPv4 clients are counted one address each, as before.
    expect((await proxy.call("/api/meta", from("2001:db8:0:2::1"))).status).toBe(200);
    expect((await proxy.call("/api/meta", from("203.0.113.7"))).status).toBe(200);
    expect((await proxy.call("/api/meta", from("203.0.113.8"))).status).toBe(200);
  });
});
