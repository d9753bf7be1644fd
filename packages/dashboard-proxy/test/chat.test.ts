import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { EnvSource } from "../src/index.js";
import { type AgentStandIn, startAgent } from "./support/agent-stand-in.js";
import { AGENT_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const CHAT = "/api/chat";
const body = { messages: [{ role: "user", content: "What moved ETH today?" }], sessionId: "s_1" };
const json = (value: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});

let agent: AgentStandIn;
let proxy: RunningProxy;
const transcripts: string[] = [];

beforeAll(async () => {
  agent = await startAgent();
});
afterAll(async () => {
  await agent.close();
  expect(transcripts.join("\n")).not.toContain(AGENT_KEY);
});
beforeEach(() => {
  agent.calls.length = 0;
  agent.behave({ kind: "stream", first: "data: first\n\n", rest: "data: rest\n\n" });
});
afterEach(async () => {
  vi.useRealTimers();
  agent.release();
  transcripts.push(proxy.transcript());
  await proxy.close();
});

async function start(env: EnvSource = {}) {
  proxy = await startProxy({ AGENT_URL: agent.url, AGENT_API_KEY: AGENT_KEY, ...env });
  return proxy;
}

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read();
  expect(done).toBe(false);
  return new TextDecoder().decode(value);
}

describe("chat streaming", () => {
  it("streams the first chunk to the client before the agent has finished", async () => {
    await start();
    const res = await proxy.open(CHAT, json(body));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    expect(await readChunk(reader)).toContain("data: first");

    // The agent is still holding its stream open: nothing after the first chunk exists yet.
    const [call] = agent.calls;
    let ended = false;
    void call?.ended.then(() => (ended = true));
    await new Promise((resolve) => setImmediate(resolve)); // one turn of the event loop for `ended`
    expect(ended).toBe(false);

    agent.release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toContain("data: rest");
    expect(await call?.ended).toBe("finished");
  });

  it("forwards only the validated body, with the key as a Bearer header, and passes back only allow-listed headers", async () => {
    await start();
    const pending = proxy.call(CHAT, json(body));
    await expect.poll(() => agent.calls.length).toBe(1);
    agent.release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(agent.calls[0]?.headers.authorization).toBe(`Bearer ${AGENT_KEY}`);
    expect(JSON.parse(agent.calls[0]?.body ?? "")).toEqual(body);
    expect(res.headers["x-agent-internal"]).toBeUndefined();
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(res.text).toBe("data: first\n\ndata: rest\n\n");
  });

  it("closes the upstream request when the client aborts", async () => {
    await start();
    const abort = new AbortController();
    const res = await proxy.open(CHAT, { ...json(body), signal: abort.signal });
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    expect(await readChunk(reader)).toContain("data: first");
    abort.abort();
    await reader.read().catch(() => undefined);
    expect(await agent.calls[0]?.ended).toBe("aborted");
  });

  it("does not time out a stream that outlasts the header timeout", async () => {
    await start({ CHAT_HEADER_TIMEOUT_MS: "1000" });
    // The proxy's header timer runs on fake timers, moved past its deadline with the body still open.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const res = await proxy.open(CHAT, json(body));
    expect(res.status).toBe(200);
    vi.advanceTimersByTime(1_500);
    agent.release();
    expect(await res.text()).toBe("data: first\n\ndata: rest\n\n");
  });

  it("answers 504 when the agent sends no headers within CHAT_HEADER_TIMEOUT_MS", async () => {
    await start({ CHAT_HEADER_TIMEOUT_MS: "1000" });
    agent.behave({ kind: "hang" });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const pending = proxy.call(CHAT, json(body));
    await expect.poll(() => agent.calls.length).toBe(1); // the header timer is running
    vi.advanceTimersByTime(1_000);
    const res = await pending;
    expect(res.status).toBe(504);
    expect(JSON.parse(res.text)).toMatchObject({ code: "GATEWAY_TIMEOUT" });
    expect(await agent.calls[0]?.ended).toBe("aborted");
  });

  it("answers an agent error with 502 and none of its body", async () => {
    await start();
    agent.behave({ kind: "status", status: 500, body: "Traceback: internal agent secret detail" });
    const res = await proxy.call(CHAT, json(body));
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toEqual({ code: "BAD_GATEWAY", message: expect.any(String) });
    expect(res.text).not.toContain("Traceback");
  });
});

describe("chat requests refused", () => {
  it("answers 503 with a clear message when AGENT_URL is unset", async () => {
    proxy = await startProxy({});
    const res = await proxy.call(CHAT, json(body));
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: expect.stringContaining("AGENT_URL"),
    });
  });

  it.each([
    ["no messages", { messages: [] }],
    ["51 messages", { messages: Array.from({ length: 51 }, () => ({ role: "user", content: "hi" })) }],
    ["an unknown role", { messages: [{ role: "tool", content: "hi" }] }],
    ["empty content", { messages: [{ role: "user", content: "" }] }],
    ["8,001 characters", { messages: [{ role: "user", content: "x".repeat(8_001) }] }],
    ["an extra field", { ...body, model: "gpt-9" }],
    ["a bad sessionId", { ...body, sessionId: "../../etc" }],
    ["a non-object", ["hello"]],
  ])("refuses a body with %s: 400 with issues, agent not called", async (_name, value) => {
    await start();
    const res = await proxy.call(CHAT, json(value));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: "BAD_REQUEST", issues: expect.any(Array) });
    expect(agent.calls).toHaveLength(0);
  });

  it("refuses invalid JSON with 400", async () => {
    await start();
    const res = await proxy.call(CHAT, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(res.status).toBe(400);
    expect(agent.calls).toHaveLength(0);
  });

  it("refuses a body over 64 KiB with 413", async () => {
    await start();
    const big = {
      messages: Array.from({ length: 10 }, () => ({ role: "user", content: "x".repeat(7_000) })),
    };
    const res = await proxy.call(CHAT, json(big));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(agent.calls).toHaveLength(0);
  });

  it("refuses an over-64-KiB body sent chunked, without Content-Length, with 413", async () => {
    await start();
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    // `duplex` is required by Node's fetch for a streamed body; the DOM typings lack it.
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    };
    const res = await proxy.call(CHAT, init);
    expect(res.status).toBe(413);
    expect(agent.calls).toHaveLength(0);
  });

  it("refuses a body that is not application/json with 415", async () => {
    await start();
    const res = await proxy.call(CHAT, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "hi",
    });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text)).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    expect(agent.calls).toHaveLength(0);
  });
});
