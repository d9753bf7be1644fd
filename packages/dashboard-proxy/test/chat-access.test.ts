import { H3 } from "h3";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ResolveSession } from "../src/chat/access.js";
import { serveApp } from "../src/http/serve.js";
import { registerChatRoute } from "../src/routes/chat.js";
import { createAgentClient } from "../src/upstream/agent.js";
import { type AgentStandIn, openAiChunk, startAgent } from "./support/agent-stand-in.js";
import { AGENT_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const ask = (headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
});

let agent: AgentStandIn;
beforeAll(async () => {
  agent = await startAgent();
});
afterAll(() => agent.close());
beforeEach(() => {
  agent.calls.length = 0;
  // Whole answers at once: these tests are about who may chat, not about streaming.
  agent.behave({ kind: "status", status: 200, body: `${openAiChunk({ content: "first" })}data: [DONE]\n\n` });
});

describe("CHAT_ACCESS=session (the default) on the real app", () => {
  let proxy: RunningProxy;
  afterEach(() => proxy.close());

  it("answers 401 to a chat without a signed-in session, and never calls the agent", async () => {
    proxy = await startProxy({ AGENT_URL: agent.url, AGENT_API_KEY: AGENT_KEY });
    const res = await proxy.call("/api/chat", ask());
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ code: "UNAUTHORIZED", message: "Sign in to use chat" });
    expect(agent.calls).toHaveLength(0);
  });

  it("still answers 503 first when no agent is configured", async () => {
    proxy = await startProxy({});
    expect((await proxy.call("/api/chat", ask())).status).toBe(503);
  });

  it("serves anyone under CHAT_ACCESS=public", async () => {
    proxy = await startProxy({ AGENT_URL: agent.url, CHAT_ACCESS: "public" });
    const res = await proxy.call("/api/chat", ask());
    expect(res.status).toBe(200);
    expect(agent.calls).toHaveLength(1);
  });
});

// The signed-in case with a session resolver handed to the route, as app.ts hands it the one
// backed by the server's GET /auth/session (tested with the session routes).
describe("CHAT_ACCESS=session with a signed-in wallet", () => {
  const WALLETS: Record<string, string> = {
    "token-a": "0xAaAa000000000000000000000000000000000001",
    "token-b": "0xBbBb000000000000000000000000000000000002",
  };
  const resolveSession: ResolveSession = async (event) => {
    const token = /keyport_session=([^;]+)/.exec(event.req.headers.get("cookie") ?? "")?.[1];
    const wallet = token === undefined ? undefined : WALLETS[token];
    return wallet === undefined ? null : { wallet };
  };
  let url: string;
  let close: () => Promise<void>;
  let failing = false;

  beforeAll(async () => {
    const app = new H3();
    registerChatRoute(app, {
      agent: createAgentClient({
        url: agent.url,
        apiKey: AGENT_KEY,
        headerTimeoutMs: 5_000,
        protocol: "openai",
      }),
      logger: pino({ level: "silent" }),
      access: "session",
      resolveSession: async (event) => {
        if (failing) throw new Error("connect ECONNREFUSED http://127.0.0.1:3000/auth/session");
        return resolveSession(event);
      },
      perWalletLimit: 2,
    });
    const server = serveApp(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
    await server.ready();
    url = (server.url ?? "").replace(/\/$/, "");
    close = () => server.close(true);
  });
  afterAll(() => close());

  it("relays the chat for a signed-in wallet", async () => {
    const res = await fetch(`${url}/api/chat`, ask({ cookie: "keyport_session=token-a" }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data: {"delta":"first"}');
  });

  it("answers 401 for an unknown or ended session", async () => {
    const res = await fetch(`${url}/api/chat`, ask({ cookie: "keyport_session=token-zzz" }));
    expect(res.status).toBe(401);
    expect(agent.calls).toHaveLength(0);
  });

  it("limits chats per wallet (429 with Retry-After), leaving other wallets alone", async () => {
    // token-a used one chat in the first test; the limit is 2 per minute.
    expect((await fetch(`${url}/api/chat`, ask({ cookie: "keyport_session=token-a" }))).status).toBe(200);
    const limited = await fetch(`${url}/api/chat`, ask({ cookie: "keyport_session=token-a" }));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(agent.calls).toHaveLength(1);
    expect((await fetch(`${url}/api/chat`, ask({ cookie: "keyport_session=token-b" }))).status).toBe(200);
  });

  it("answers 502 without details when the session cannot be checked", async () => {
    failing = true;
    try {
      const res = await fetch(`${url}/api/chat`, ask({ cookie: "keyport_session=token-b" }));
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ code: "BAD_GATEWAY" });
      expect(text).not.toContain("ECONNREFUSED");
      expect(text).not.toContain("127.0.0.1");
    } finally {
      failing = false;
    }
  });
});
