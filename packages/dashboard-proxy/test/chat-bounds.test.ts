import { type AgentStandIn, openAiChunk, startAgent } from "@keyport/test-support/agent-stand-in";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EnvSource } from "../src/index.js";
import { AGENT_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const CHAT = "/api/chat";
const MiB = 1024 * 1024;
const ask: RequestInit = {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
};
const AGENT_FAILED = `event: error\ndata: ${JSON.stringify({ code: "BAD_GATEWAY", message: "The chat agent failed while answering" })}\n\n`;
const DONE = "event: done\ndata: {}\n\n";

let agent: AgentStandIn;
let proxy: RunningProxy;

beforeAll(async () => {
  agent = await startAgent();
});
afterAll(() => agent.close());
beforeEach(() => {
  agent.calls.length = 0;
});
afterEach(async () => {
  agent.release();
  await proxy.close();
});

// Chat is public here: these tests are about what the proxy holds of the agent's stream.
async function start(env: EnvSource = {}) {
  proxy = await startProxy({ AGENT_URL: agent.url, AGENT_API_KEY: AGENT_KEY, CHAT_ACCESS: "public", ...env });
}

/** Why the proxy cut the answer, from its warning line. */
function failureDetail(): unknown {
  const line = proxy.logLines
    .map((text) => JSON.parse(text))
    .find((log) => log.msg === "agent stream failed");
  return line?.failure?.detail;
}

describe("the agent's stream is bounded", () => {
  it("ends with the error event and hangs up on a line over 1 MiB, answering /healthz meanwhile", async () => {
    await start();
    // 2 MiB of one `data:` line that never ends, the connection held open.
    agent.behave({ kind: "stream", first: `data: ${"x".repeat(2 * MiB)}`, rest: "" });
    const rssBefore = process.memoryUsage().rss;
    const pending = proxy.call(CHAT, ask);
    await expect.poll(() => agent.calls.length).toBe(1);
    const started = performance.now();
    const health = await proxy.call("/healthz");
    expect(health.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);

    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.text).toBe(AGENT_FAILED);
    expect(await agent.calls[0]?.ended).toBe("aborted");
    expect(failureDetail()).toBe("line too long");
    // Generous: the 2 MiB the stand-in wrote live in this process too; the proxy held at most 1 MiB more.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * MiB);
  });

  it("ends with the error event and hangs up on an answer over 8 MiB of well-framed events", async () => {
    await start();
    // 9 MiB in chunks of 64 KiB of text each, every line short; the agent would then say [DONE].
    const piece = openAiChunk({ content: "y".repeat(64 * 1024) });
    const first = piece.repeat(Math.ceil((9 * MiB) / piece.length));
    agent.behave({ kind: "stream", first, rest: "data: [DONE]\n\n" });
    const pending = proxy.call(CHAT, ask);
    await expect.poll(() => agent.calls.length).toBe(1);
    const res = await pending;
    expect(res.text.endsWith(AGENT_FAILED)).toBe(true);
    expect(res.text).not.toContain(DONE);
    // What was relayed is less than the bound: nothing past 8 MiB of the agent's bytes reached the browser.
    expect(res.text.length).toBeLessThan(8 * MiB + 64 * 1024);
    expect(await agent.calls[0]?.ended).toBe("aborted");
    expect(failureDetail()).toBe("answer too long");
  });

  it("ends with the error event and hangs up when the agent is silent past CHAT_IDLE_TIMEOUT_MS", async () => {
    await start({ CHAT_IDLE_TIMEOUT_MS: "300" });
    // One delta, then nothing: the connection stays open and silent.
    agent.behave({ kind: "stream", first: openAiChunk({ content: "partial" }), rest: "" });
    const started = performance.now();
    const res = await proxy.call(CHAT, ask);
    expect(res.text).toBe(`data: ${JSON.stringify({ delta: "partial" })}\n\n${AGENT_FAILED}`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(await agent.calls[0]?.ended).toBe("aborted");
    expect(failureDetail()).toBe("idle");
  });

  it("keeps an answer whose events each come within the idle time", async () => {
    // Half a second of silence under a 1.5 s bound: wide enough for a loaded machine's late timers.
    await start({ CHAT_IDLE_TIMEOUT_MS: "1500" });
    agent.behave({ kind: "stream", first: openAiChunk({ content: "a" }), rest: "data: [DONE]\n\n" });
    const pending = proxy.call(CHAT, ask);
    await expect.poll(() => agent.calls.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    agent.release();
    expect((await pending).text).toBe(`data: ${JSON.stringify({ delta: "a" })}\n\n${DONE}`);
  });

  it("bounds a plain-text agent's silence too", async () => {
    await start({ AGENT_PROTOCOL: "text", CHAT_IDLE_TIMEOUT_MS: "300" });
    agent.behave({ kind: "stream", first: "Hello", rest: "" });
    const res = await proxy.call(CHAT, ask);
    expect(res.text).toBe(`data: ${JSON.stringify({ delta: "Hello" })}\n\n${AGENT_FAILED}`);
    expect(await agent.calls[0]?.ended).toBe("aborted");
  });
});

describe("CHAT_IDLE_TIMEOUT_MS", () => {
  it("defaults to 60 s", async () => {
    const { parseEnv } = await import("../src/index.js");
    expect(parseEnv({}).CHAT_IDLE_TIMEOUT_MS).toBe(60_000);
  });
});
