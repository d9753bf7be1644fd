import {
  type AgentStandIn,
  OPENAI_FIRST_REST,
  openAiChunk,
  startAgent,
} from "@keyport/test-support/agent-stand-in";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { EnvSource } from "../src/index.js";
import { AGENT_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const CHAT = "/api/chat";
const question = { role: "user", content: "What moved ETH today?" };
const body = { messages: [question], sessionId: "s_1" };
const json = (value: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});
const delta = (text: string) => `data: ${JSON.stringify({ delta: text })}\n\n`;
const DONE = "event: done\ndata: {}\n\n";
const AGENT_FAILED = `event: error\ndata: ${JSON.stringify({ code: "BAD_GATEWAY", message: "The chat agent failed while answering" })}\n\n`;

let agent: AgentStandIn;
let proxy: RunningProxy;
const transcripts: string[] = [];

beforeAll(async () => {
  agent = await startAgent();
});
afterAll(async () => {
  await agent.close();
  const everything = transcripts.join("\n");
  expect(everything).not.toContain(AGENT_KEY);
  expect(everything).not.toContain("agent secret detail");
});
beforeEach(() => {
  agent.calls.length = 0;
  agent.behave(OPENAI_FIRST_REST);
});
afterEach(async () => {
  vi.useRealTimers();
  agent.release();
  transcripts.push(proxy.transcript());
  await proxy.close();
});

// These tests are about the relay: chat is public here; chat-access.test.ts covers sessions.
async function start(env: EnvSource = {}) {
  proxy = await startProxy({ AGENT_URL: agent.url, AGENT_API_KEY: AGENT_KEY, CHAT_ACCESS: "public", ...env });
  return proxy;
}

/** Starts a chat and lets the agent finish once it has been asked; answers the whole response. */
async function chatToTheEnd(value: unknown = body) {
  const pending = proxy.call(CHAT, json(value));
  await expect.poll(() => agent.calls.length).toBeGreaterThan(0);
  agent.release();
  return pending;
}

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read();
  expect(done).toBe(false);
  return new TextDecoder().decode(value);
}

describe("chat relay from an OpenAI-style agent", () => {
  it("streams each text delta as an event as it arrives, in order, then a done event", async () => {
    await start();
    const res = await proxy.open(CHAT, json(body));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    // The role-only chunk carries no text and makes no event.
    expect(await readChunk(reader)).toBe(delta("first"));

    // The agent is still holding its stream open: nothing after the first delta exists yet.
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
    expect(rest).toBe(delta("rest") + DONE);
    expect(await call?.ended).toBe("finished");
  });

  it("sends { model, stream, messages } with the system prompt first, the key as Bearer, and no sessionId", async () => {
    await start({
      AGENT_MODEL: "gpt-4o-mini",
      AGENT_SYSTEM_PROMPT: "You answer questions about crypto markets.",
    });
    const res = await chatToTheEnd();
    expect(res.status).toBe(200);
    expect(agent.calls[0]?.headers.authorization).toBe(`Bearer ${AGENT_KEY}`);
    expect(agent.calls[0]?.headers.accept).toBe("text/event-stream");
    expect(JSON.parse(agent.calls[0]?.body ?? "")).toEqual({
      model: "gpt-4o-mini",
      stream: true,
      messages: [{ role: "system", content: "You answer questions about crypto markets." }, question],
    });
    // Only our own headers go back: none of the agent's.
    expect(res.headers["x-agent-internal"]).toBeUndefined();
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(res.text).toBe(delta("first") + delta("rest") + DONE);
  });

  it("omits model and system prompt when they are not set", async () => {
    await start();
    await chatToTheEnd({ messages: [question, { role: "assistant", content: "ETH rose." }, question] });
    expect(JSON.parse(agent.calls[0]?.body ?? "")).toEqual({
      stream: true,
      messages: [question, { role: "assistant", content: "ETH rose." }, question],
    });
  });

  it("keeps every character of deltas with quotes, newlines and non-ASCII text", async () => {
    await start();
    const pieces = ['He said "hi"\n', "line two\r\n\n", "café ☕ 🚀", "data: not a frame\n\n"];
    agent.behave({ kind: "openai", first: pieces, rest: [] });
    const res = await chatToTheEnd();
    expect(res.text).toBe(pieces.map(delta).join("") + DONE);
  });

  it("ends the answer at [DONE], even when the agent keeps its connection open", async () => {
    await start();
    agent.behave({ kind: "stream", first: `${openAiChunk({ content: "all" })}data: [DONE]\n\n`, rest: "" });
    // Not released: the agent holds the connection; the proxy finishes and hangs up on it.
    const res = await proxy.call(CHAT, json(body));
    expect(res.text).toBe(delta("all") + DONE);
    expect(await agent.calls[0]?.ended).toBe("aborted");
  });

  it("treats a clean end without [DONE] as the end of the answer", async () => {
    await start();
    agent.behave({ kind: "openai", first: ["a"], rest: ["b"], end: "no-done" });
    expect((await chatToTheEnd()).text).toBe(delta("a") + delta("b") + DONE);
  });

  it.each([
    ["its connection dies", "reset"],
    ["it sends an error event", "error"],
  ] as const)("ends with an error event when the agent fails mid-answer (%s)", async (_name, end) => {
    await start();
    agent.behave({ kind: "openai", first: ["partial"], rest: ["more"], end });
    const res = await chatToTheEnd();
    expect(res.status).toBe(200);
    expect(res.text).toMatch(new RegExp(`^${delta("partial")}(${delta("more")})?`));
    expect(res.text.endsWith(AGENT_FAILED)).toBe(true);
    expect(res.text).not.toContain("agent secret detail");
    const warning = proxy.logLines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === "agent stream failed");
    expect(warning).toMatchObject({ upstream: "agent", failure: { kind: "bad_gateway" } });
  });

  it("ends with an error event when the agent sends data that is not a chunk", async () => {
    await start();
    agent.behave({
      kind: "stream",
      first: openAiChunk({ content: "ok" }),
      rest: "data: <html>oops</html>\n\n",
    });
    expect((await chatToTheEnd()).text).toBe(delta("ok") + AGENT_FAILED);
  });

  it("aborts the agent's request when the browser stops reading (Stop)", async () => {
    await start();
    const abort = new AbortController();
    const res = await proxy.open(CHAT, { ...json(body), signal: abort.signal });
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    expect(await readChunk(reader)).toBe(delta("first"));
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
    expect(await res.text()).toBe(delta("first") + delta("rest") + DONE);
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

  it("answers an agent error status with a 502 envelope and none of its body", async () => {
    await start();
    agent.behave({ kind: "status", status: 500, body: "Traceback: internal agent secret detail" });
    const res = await proxy.call(CHAT, json(body));
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toEqual({
      code: "BAD_GATEWAY",
      message: expect.any(String),
      requestId: res.headers["x-request-id"],
    });
    expect(res.text).not.toContain("Traceback");
  });
});

describe("chat relay from a plain-text agent (AGENT_PROTOCOL=text)", () => {
  it("relays each chunk of the body as a delta and passes sessionId and the system prompt through", async () => {
    await start({ AGENT_PROTOCOL: "text", AGENT_MODEL: "ignored", AGENT_SYSTEM_PROMPT: "Be brief." });
    agent.behave({ kind: "stream", first: "Hello, ", rest: "world." });
    const res = await proxy.open(CHAT, json(body));
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    // Each read of the agent's body is one delta: the rest is released only once the first was relayed
    // (released earlier, both pieces may arrive in one read and make one delta).
    expect(await readChunk(reader)).toBe(delta("Hello, "));
    agent.release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toBe(delta("world.") + DONE);
    expect(JSON.parse(agent.calls[0]?.body ?? "")).toEqual({
      messages: [{ role: "system", content: "Be brief." }, question],
      sessionId: "s_1",
    });
  });
});
