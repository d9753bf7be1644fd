import { type AgentStandIn, openAiChunk, startAgent } from "@keyport/test-support/agent-stand-in";
import { H3 } from "h3";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AGENT_STREAM_BOUNDS } from "../src/chat/stream-bounds.js";
import { serveApp } from "../src/http/serve.js";
import { registerChatRoute } from "../src/routes/chat.js";
import { createAgentClient } from "../src/upstream/agent.js";
import { cookieHeader, setCookies } from "./support/cookies.js";
import { type RunningKeyport, startKeyport } from "./support/keyport-server.js";
import { AGENT_KEY, type RunningProxy, startProxy } from "./support/proxy.js";
import { newAccount, nonceThroughProxy, signedMessage } from "./support/siwe.js";

const HOST = "dashboard.test:3001";
const ORIGIN = `http://${HOST}`;

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

describe("CHAT_ACCESS=session (the default) with the real server's sessions", () => {
  let keyport: RunningKeyport;
  let proxy: RunningProxy;

  beforeAll(async () => {
    keyport = await startKeyport({ SIWE_DOMAINS: HOST });
    proxy = await startProxy({
      KEYPORT_URL: keyport.url,
      PUBLIC_ORIGIN: ORIGIN,
      AGENT_URL: agent.url,
      AGENT_API_KEY: AGENT_KEY,
      CHAT_RATE_LIMIT_PER_MINUTE: "2",
    });
  });
  afterAll(async () => {
    await proxy.close();
    await keyport.close();
  });

  /** Signs a new wallet in through `POST /api/session`, as the dashboard does; answers its Cookie header. */
  async function signIn(): Promise<string> {
    const account = newAccount();
    const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
    const response = await proxy.open("/api/session", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify(await signedMessage(account, HOST, nonce)),
    });
    expect(response.status).toBe(200);
    return cookieHeader(setCookies(response));
  }

  it("answers 401 to a chat without a session cookie, and never calls the agent", async () => {
    const res = await proxy.call("/api/chat", ask({ origin: ORIGIN }));
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ code: "UNAUTHORIZED", message: "Sign in to use chat" });
    expect(agent.calls).toHaveLength(0);
  });

  it("relays a signed-in wallet's chat, then refuses it once the wallet signed out", async () => {
    const cookie = await signIn();
    const res = await proxy.call("/api/chat", ask({ origin: ORIGIN, cookie }));
    expect(res.status).toBe(200);
    expect(res.text).toBe('data: {"delta":"first"}\n\nevent: done\ndata: {}\n\n');
    // The session token is the proxy's business: it never reaches the agent.
    expect(JSON.stringify(agent.calls[0]?.headers)).not.toContain(cookie.split("=")[1]?.split(";")[0]);

    const out = await proxy.call("/api/session", { method: "DELETE", headers: { origin: ORIGIN, cookie } });
    expect(out.status).toBe(200);
    expect((await proxy.call("/api/chat", ask({ origin: ORIGIN, cookie }))).status).toBe(401);
    expect(agent.calls).toHaveLength(1);
  });

  it("refuses a chat at once after the session ended elsewhere (the server's logout), within seconds of the last chat", async () => {
    const cookie = await signIn();
    expect((await proxy.call("/api/chat", ask({ origin: ORIGIN, cookie }))).status).toBe(200);
    // Signed out on the server itself, as another proxy instance or the REST logout does.
    const token = cookie.match(/keyport_session=([^;]+)/)?.[1];
    const out = await fetch(`${keyport.url}/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(out.status).toBe(200);
    const res = await proxy.call("/api/chat", ask({ origin: ORIGIN, cookie }));
    expect(res.status).toBe(401);
    expect(agent.calls).toHaveLength(1);
  });

  it("limits chats per wallet (429 with Retry-After), leaving other wallets alone", async () => {
    const [first, second] = [await signIn(), await signIn()];
    for (let i = 0; i < 2; i++) {
      expect((await proxy.call("/api/chat", ask({ origin: ORIGIN, cookie: first }))).status).toBe(200);
    }
    const limited = await proxy.call("/api/chat", ask({ origin: ORIGIN, cookie: first }));
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text)).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(agent.calls).toHaveLength(2);
    expect((await proxy.call("/api/chat", ask({ origin: ORIGIN, cookie: second }))).status).toBe(200);
  });
});

describe("chat without sessions", () => {
  let proxy: RunningProxy;
  afterEach(() => proxy.close());

  it("answers 503 before asking for a session when no agent is configured", async () => {
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

describe("a session lookup that fails", () => {
  it("answers 502 without the failure's details, and never calls the agent", async () => {
    const app = new H3();
    registerChatRoute(app, {
      agent: createAgentClient({
        url: agent.url,
        apiKey: AGENT_KEY,
        headerTimeoutMs: 5_000,
        bounds: AGENT_STREAM_BOUNDS,
        protocol: "openai",
      }),
      logger: pino({ level: "silent" }),
      resolveSession: async () => {
        throw new Error("connect ECONNREFUSED http://127.0.0.1:3000/auth/session");
      },
    });
    const server = serveApp(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
    await server.ready();
    try {
      const res = await fetch(`${(server.url ?? "").replace(/\/$/, "")}/api/chat`, ask());
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ code: "BAD_GATEWAY" });
      expect(text).not.toContain("ECONNREFUSED");
      expect(agent.calls).toHaveLength(0);
    } finally {
      await server.close(true);
    }
  });
});
