import { connect, type Socket } from "node:net";
import { type AgentStandIn, OPENAI_FIRST_REST, startAgent } from "@keyport/test-support/agent-stand-in";
import { parsePrometheus, sampleValue } from "@keyport/test-support/prometheus";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type KeyportStandIn, startKeyportStandIn } from "./support/keyport-stand-in.js";
import { AGENT_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

// A client that resets or closes mid-request (a closed tab, a Ctrl-C, a flaky network) is the
// client's doing: an info line saying so and a 499, never "unhandled error", an error-level line or
// a 5xx in /metrics.

const PUBLIC_ORIGIN = "http://dashboard.test:3001";

let agent: AgentStandIn;
let keyport: KeyportStandIn;
let proxy: RunningProxy;
let port: number;

beforeAll(async () => {
  agent = await startAgent();
  keyport = await startKeyportStandIn();
  proxy = await startProxy({
    AGENT_URL: agent.url,
    AGENT_API_KEY: AGENT_KEY,
    CHAT_ACCESS: "public",
    KEYPORT_URL: keyport.url,
    PUBLIC_ORIGIN,
  });
  port = Number(new URL(proxy.url).port);
});
afterEach(() => {
  keyport.behave({ kind: "answer", status: 200, body: '{"result":{"data":{"json":[]}}}' });
  agent.behave(OPENAI_FIRST_REST);
  agent.release();
});
afterAll(async () => {
  await proxy.close();
  await Promise.all([agent.close(), keyport.close()]);
});

type Line = { level: number; msg: string; method?: string; path?: string; status?: number };
const lines = (): Line[] => proxy.logLines.map((line) => JSON.parse(line) as Line);
const linesFor = (path: string) => lines().filter((line) => line.path === path);

/**
 * Sends a request's head declaring a 1,000-byte body, waits for the server's `100 Continue` (so the
 * request has reached the app, not just the socket), sends a few bytes of it, then ends the
 * connection: `reset` (RST, as a killed process or a dropped network) or `close` (FIN, as a
 * browser's closed tab).
 */
function cutMidBody(path: string, how: "reset" | "close"): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ port, host: "127.0.0.1" }, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: dashboard.test:3001\r\nOrigin: ${PUBLIC_ORIGIN}\r\n` +
          "Content-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n",
      );
    });
    socket.once("data", (chunk: Buffer) => {
      if (!chunk.toString("latin1").startsWith("HTTP/1.1 100 ")) {
        reject(new Error(`expected 100 Continue, got ${chunk.toString("latin1").split("\r\n")[0]}`));
        return;
      }
      socket.write('{"messages":[{"role":"user","content":"half a que');
      if (how === "reset") socket.resetAndDestroy();
      else socket.end();
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve());
  });
}

async function metrics(): Promise<ReturnType<typeof parsePrometheus>> {
  const response = await proxy.call("/metrics");
  expect(response.status).toBe(200);
  return parsePrometheus(response.text);
}

describe("a client that goes away mid-body", () => {
  it.each([
    ["/api/chat", "reset"],
    ["/api/chat", "close"],
    ["/trpc/keys.create", "reset"],
    ["/trpc/keys.create", "close"],
    ["/api/session", "reset"],
  ] as const)("POST %s cut by a %s is logged at info as an abort, counted as 499", async (path, how) => {
    const before = linesFor(path).length;
    await cutMidBody(path, how);

    await expect.poll(() => linesFor(path).length).toBe(before + 1);
    const line = linesFor(path).at(-1);
    expect(line).toMatchObject({ level: 30, msg: "request aborted by the client", status: 499 });
    expect(lines().filter((entry) => entry.level >= 40)).toEqual([]);
    expect(proxy.logLines.join("")).not.toContain("unhandled error");
    // Nothing reached the upstreams: the body never arrived whole.
    expect(agent.calls).toHaveLength(0);
    expect(keyport.requests).toHaveLength(0);

    const samples = await metrics();
    const route = path === "/trpc/keys.create" ? "/trpc/**" : path;
    expect(sampleValue(samples, "keyport_proxy_http_server_errors_total", { route })).toBe(0);
    expect(
      sampleValue(samples, "keyport_proxy_http_requests_total", { method: "POST", route, status: "500" }),
    ).toBe(0);
    expect(
      sampleValue(samples, "keyport_proxy_http_requests_total", { method: "POST", route, status: "499" }),
    ).toBeGreaterThan(0);
  });
});

describe("a client that gives up while the proxy waits on an upstream", () => {
  it("GET /trpc/keys.list aborted while the server is slow is an info-level abort, not an upstream failure", async () => {
    keyport.behave({ kind: "hang" });
    const path = "/trpc/keys.list";
    const before = linesFor(path).length;
    const requestsBefore = keyport.requests.length;
    const stop = new AbortController();
    const pending = fetch(`${proxy.url}${path}?input=%7B%7D`, { signal: stop.signal });
    // The forward is under way once the stand-in has the request.
    await expect.poll(() => keyport.requests.length).toBe(requestsBefore + 1);
    stop.abort();
    await expect(pending).rejects.toThrow();

    await expect.poll(() => linesFor(path).length).toBe(before + 1);
    expect(linesFor(path).at(-1)).toMatchObject({
      level: 30,
      msg: "request aborted by the client",
      status: 499,
    });
    expect(lines().filter((entry) => entry.level >= 40)).toEqual([]);
  });

  it("a chat aborted before the agent answers is an info-level abort", async () => {
    agent.behave({ kind: "hang" });
    const path = "/api/chat";
    const before = linesFor(path).length;
    const callsBefore = agent.calls.length;
    const stop = new AbortController();
    const pending = fetch(`${proxy.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: PUBLIC_ORIGIN },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
      signal: stop.signal,
    });
    await expect.poll(() => agent.calls.length).toBe(callsBefore + 1);
    stop.abort();
    await expect(pending).rejects.toThrow();

    await expect.poll(() => linesFor(path).length).toBe(before + 1);
    expect(linesFor(path).at(-1)).toMatchObject({ level: 30, status: 499 });
    expect(lines().filter((entry) => entry.level >= 40)).toEqual([]);
    agent.calls.length = 0;
  });

  it("still answers the next request on a fresh connection", async () => {
    const health = await proxy.call("/healthz");
    expect(health.status).toBe(200);
  });
});
