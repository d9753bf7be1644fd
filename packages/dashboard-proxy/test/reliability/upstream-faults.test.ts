import { connect, createServer } from "node:net";
import { portOf } from "@keyport/test-support/port";
import { expectErrorEnvelope, sendRaw } from "@keyport/test-support/raw-http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AGENT_KEY, COINGECKO_KEY, type RunningProxy, startProxy } from "../support/proxy.js";
import { type MisbehavingUpstream, type Misbehaviour, startMisbehavingUpstream } from "./support.js";

// Upstreams that fail at the byte level: the proxy answers 502 or 504 in the envelope, quickly
// enough to be useful, logs no unhandled error, and serves the next good request as if nothing happened.

let upstream: MisbehavingUpstream;
let proxy: RunningProxy;
let nextCoin = 0;
const transcripts: string[] = [];

beforeAll(async () => {
  upstream = await startMisbehavingUpstream();
  proxy = await startProxy({
    COINGECKO_BASE_URL: upstream.baseUrl,
    COINGECKO_API_KEY: COINGECKO_KEY,
    AGENT_URL: `${upstream.baseUrl}/chat`,
    AGENT_API_KEY: AGENT_KEY,
    // Raw bytes, relayed as deltas; chat open to all (these tests are about upstream faults).
    AGENT_PROTOCOL: "text",
    CHAT_ACCESS: "public",
    UPSTREAM_TIMEOUT_MS: "1000",
    CHAT_HEADER_TIMEOUT_MS: "1000",
    RATE_LIMIT_PER_MINUTE: "1000000",
    // These tests count the proxy's answers to failures, not the plan's budget (see prices-budget tests).
    COINGECKO_CALLS_PER_MINUTE: "1000000",
  });
});
afterEach(() => {
  upstream.behave("good");
});
afterAll(async () => {
  transcripts.push(proxy.transcript());
  await proxy.close();
  await upstream.close();
  const everything = transcripts.join("\n");
  expect(everything).not.toContain(COINGECKO_KEY);
  expect(everything).not.toContain(AGENT_KEY);
  expect(everything).not.toContain("unhandled error");
});

/** A price request no earlier test has cached, so it really goes upstream. */
const freshPrice = () => `/api/prices/simple?ids=coin-${nextCoin++}&vs_currencies=usd`;

const DONE = "event: done\ndata: {}\n\n";
const AGENT_FAILED =
  'event: error\ndata: {"code":"BAD_GATEWAY","message":"The chat agent failed while answering"}\n\n';

const chat = (body = { messages: [{ role: "user", content: "hi" }] }) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

async function expectStillServing(running: RunningProxy = proxy): Promise<void> {
  upstream.behave("good");
  const good = await sendRaw(running.url, { path: freshPrice() });
  expect(good.status).toBe(200);
  expect(JSON.parse(good.text)).toEqual({ bitcoin: { usd: 100 } });
  expect((await sendRaw(running.url, { path: "/healthz" })).status).toBe(200);
}

describe("market data upstream misbehaving", () => {
  it.each<[Misbehaviour, number]>([
    ["hang", 504],
    ["drip", 504],
    ["reset", 502],
    ["close", 502],
    ["not-http", 502],
    ["bad-status", 502],
    ["truncated", 502],
    ["truncated-chunked", 502],
    ["garbage-body", 502],
    ["wrong-shape", 502],
    ["huge-length", 502],
  ])("an upstream that does %s gets %i, and the next good request succeeds", async (mode, status) => {
    upstream.behave(mode);
    const before = upstream.requests.length;
    const res = await sendRaw(proxy.url, { path: freshPrice() });
    expect(res.status).toBe(status);
    expectErrorEnvelope(res);
    expect(JSON.parse(res.text).code).toBe(status === 504 ? "GATEWAY_TIMEOUT" : "BAD_GATEWAY");
    expect(upstream.requests.length).toBeGreaterThan(before);
    await expectStillServing();
  });

  it("answers 50 concurrent requests to a resetting upstream with 502 each, and recovers", async () => {
    upstream.behave("reset");
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => sendRaw(proxy.url, { path: freshPrice() })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 50 }, () => 502));
    await expectStillServing();
  });

  it("answers 50 concurrent requests for one key to a hanging upstream with one call and 504 each", async () => {
    upstream.behave("hang");
    const path = freshPrice();
    const before = upstream.requests.length;
    const answers = await Promise.all(Array.from({ length: 50 }, () => sendRaw(proxy.url, { path })));
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 50 }, () => 504));
    expect(upstream.requests.length - before).toBe(1);
    await expectStillServing();
  });

  it("answers 502 when nothing listens at the upstream address, and stays up", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = portOf(closed.address());
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await startProxy({
      COINGECKO_BASE_URL: `http://127.0.0.1:${port}/api/v3`,
      AGENT_URL: `http://127.0.0.1:${port}/chat`,
      CHAT_ACCESS: "public",
      COINGECKO_CALLS_PER_MINUTE: "1000000",
    });
    try {
      const prices = await sendRaw(refused.url, { path: freshPrice() });
      expect(prices.status).toBe(502);
      expectErrorEnvelope(prices);
      const answer = await sendRaw(refused.url, { path: "/api/chat", ...chat() });
      expect(answer.status).toBe(502);
      expectErrorEnvelope(answer);
      expect((await sendRaw(refused.url, { path: "/healthz" })).status).toBe(200);
    } finally {
      transcripts.push(refused.transcript());
      await refused.close();
    }
  });
});

describe("chat agent misbehaving", () => {
  it.each<[Misbehaviour, number]>([
    ["hang", 504],
    ["reset", 502],
    ["close", 502],
    ["not-http", 502],
    ["bad-status", 502],
  ])("an agent that does %s before its headers gets %i, and the next chat succeeds", async (mode, status) => {
    upstream.behave(mode);
    const res = await sendRaw(proxy.url, { path: "/api/chat", ...chat() });
    expect(res.status).toBe(status);
    expectErrorEnvelope(res);
    upstream.behave("good");
    const next = await sendRaw(proxy.url, { path: "/api/chat", ...chat() });
    expect(next.status).toBe(200);
    expect(next.text).toMatch(/^data: \{"delta":/);
    expect(next.text.endsWith(DONE)).toBe(true);
  });

  it.each<Misbehaviour>(["stream-then-reset", "truncated", "truncated-chunked"])(
    "an agent that dies mid-stream (%s) cuts the client's stream short; the proxy stays up",
    async (mode) => {
      upstream.behave(mode);
      const response = await fetch(`${proxy.url}/api/chat`, chat());
      expect(response.status).toBe(200);
      // The client gets what the agent sent, then an error event: a cut stream never looks complete.
      const reader = response.body?.getReader();
      if (!reader) throw new Error("no body");
      let received = "";
      const ending = await (async () => {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) return "clean end";
          received += new TextDecoder().decode(chunk.value);
        }
      })().catch(() => "error");
      expect(ending).toBe("clean end");
      expect(received.endsWith(AGENT_FAILED)).toBe(true);
      expect(received).not.toContain(DONE);
      if (mode === "stream-then-reset")
        expect(received).toBe(`data: {"delta":"data: first\\n\\n"}\n\n${AGENT_FAILED}`);
      await expectStillServing();
      const next = await sendRaw(proxy.url, { path: "/api/chat", ...chat() });
      expect(next.status).toBe(200);
    },
  );

  it("survives 30 concurrent chats whose agent resets mid-stream, then serves chat again", async () => {
    upstream.behave("stream-then-reset");
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const response = await fetch(`${proxy.url}/api/chat`, chat());
        await response.text().catch(() => "");
        return response.status;
      }),
    );
    expect(outcomes.every((status) => status === 200)).toBe(true);
    upstream.behave("good");
    expect((await sendRaw(proxy.url, { path: "/api/chat", ...chat() })).status).toBe(200);
  });

  it("a client that hangs up mid-stream while the agent dies does not take the proxy down", async () => {
    upstream.behave("stream-then-reset");
    const port = Number(new URL(proxy.url).port);
    const body = JSON.stringify({ messages: [{ role: "user", content: "hi" }] });
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(
          `POST /api/chat HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        );
      });
      socket.on("data", () => socket.destroy());
      socket.on("close", () => resolve());
      socket.on("error", () => resolve());
    });
    await expectStillServing();
  });
});

describe("malformed requests at the protocol level", () => {
  it.each([
    ["non-HTTP bytes", "\u0000\u0001\u0002 hello\r\n\r\n"],
    ["a bad Content-Length", "POST /api/chat HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n"],
    ["a control character in Host", "GET /healthz HTTP/1.1\r\nhost: \u0001\r\n\r\n"],
    [
      "both Content-Length and chunked",
      "POST /api/chat HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
    ["20 KiB of headers", `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`],
  ])("refuses %s with a 4xx and keeps serving", async (_name, payload) => {
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(proxy.url).port), "127.0.0.1", () => socket.write(payload));
      let data = "";
      socket.on("data", (chunk: Buffer) => {
        data += chunk.toString("latin1");
      });
      socket.on("close", () => resolve(data));
      socket.on("error", () => resolve(data));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
    await expectStillServing();
  });

  it("serves an absolute-form request target by its path, never by the host it names", async () => {
    upstream.behave("good");
    const before = upstream.requests.length;
    const res = await sendRaw(proxy.url, { path: `http://evil.example${freshPrice()}` });
    expect(res.status).toBe(200);
    const seen = upstream.requests.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^GET \/api\/v3\/simple\/price\?/);
  });
});
