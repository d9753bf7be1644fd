import { Server } from "node:http";
import { connect } from "node:net";
import { type AgentStandIn, OPENAI_FIRST_REST, startAgent } from "@keyport/test-support/agent-stand-in";
import type { serve } from "h3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SERVER_TIMEOUTS, type ServeOptions, serveApp } from "../src/http/serve.js";
import { createApp, parseEnv } from "../src/index.js";
import { AGENT_KEY } from "./support/proxy.js";
import { trickle } from "./support/slow-client.js";

// Slow clients cannot hold the proxy's connections: the node server's timeouts, shrunk here so the
// tests stay fast (test/reliability/slow-clients.test.ts runs the real ones).
const SHORT: NonNullable<ServeOptions["node"]> = {
  headersTimeout: 300,
  requestTimeout: 600,
  keepAliveTimeout: 200,
  connectionsCheckingInterval: 50,
};

let agent: AgentStandIn;
let running: ReturnType<typeof serve> | undefined;

beforeAll(async () => {
  agent = await startAgent();
});
afterEach(async () => {
  agent.behave(OPENAI_FIRST_REST);
  agent.release();
  await running?.close(true);
  running = undefined;
});
afterAll(() => agent.close());

async function start(node?: ServeOptions["node"]): Promise<{ port: number; nodeServer: Server }> {
  const app = createApp(parseEnv({ AGENT_URL: agent.url, AGENT_API_KEY: AGENT_KEY, CHAT_ACCESS: "public" }), {
    logDestination: { write: () => {} },
  });
  running = serveApp(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false, node });
  await running.ready();
  const nodeServer = running.node?.server;
  if (!(nodeServer instanceof Server)) throw new Error("not a node:http server");
  return { port: Number(new URL(running.url ?? "").port), nodeServer };
}

const statusOf = (text: string) => Number(text.split(" ")[1]);
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as unknown;

describe("the proxy's node server timeouts", () => {
  it("are 10 s for headers, 30 s for the request, 5 s keep-alive, checked every second", async () => {
    const { nodeServer } = await start();
    expect(SERVER_TIMEOUTS).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    });
    expect(nodeServer.headersTimeout).toBe(10_000);
    expect(nodeServer.requestTimeout).toBe(30_000);
    expect(nodeServer.keepAliveTimeout).toBe(5_000);
  });

  it("answer headers sent a byte at a time with a 408 envelope once headersTimeout passes", async () => {
    const { port } = await start(SHORT);
    const request =
      "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    const result = await trickle(port, "", request, 20);
    expect(statusOf(result.text)).toBe(408);
    expect(bodyOf(result.text)).toEqual({ code: "TIMEOUT", message: "The request took too long to arrive" });
    // Cut while the headers were still arriving, not after they were all in.
    expect(result.sent).toBeLessThan(request.length);
  });

  it("answer a body sent a byte at a time with a 408 envelope once requestTimeout passes", async () => {
    const { port } = await start(SHORT);
    const body = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(200) }] });
    const head =
      "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
      `Content-Length: ${body.length}\r\n\r\n`;
    const result = await trickle(port, head, body, 20);
    expect(statusOf(result.text)).toBe(408);
    expect(result.sent).toBeLessThan(body.length);
    expect(agent.calls).toHaveLength(0);
  });

  it("close a connection that sends nothing at all", async () => {
    const { port } = await start(SHORT);
    const result = await trickle(port, "", "", 1_000, 5_000);
    expect(statusOf(result.text)).toBe(408);
    expect(result.elapsedMs).toBeLessThan(1_000);
  });

  it("close an idle keep-alive connection after keepAliveTimeout", async () => {
    const { port } = await start(SHORT);
    const closed = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect({ port, host: "127.0.0.1" }, () =>
        socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"),
      );
      socket.setTimeout(5_000, () => socket.destroy(new Error("the idle connection was kept open")));
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("latin1");
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(text));
    });
    // One answer, then the server hung up on the idle connection (no 408: nothing was pending).
    expect(statusOf(closed)).toBe(200);
    expect(closed.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it("do not cut a chat stream that lasts longer than requestTimeout", async () => {
    const { port } = await start(SHORT);
    const response = await fetch(`http://127.0.0.1:${port}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(response.status).toBe(200);
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (reader === undefined) throw new Error("no body");
    let text = "";
    while (!text.includes("first")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    expect(text).toContain("first");

    // A slow client that arrives after the chat began is cut at requestTimeout: once it has been,
    // the chat stream has run longer than requestTimeout, and it is still open.
    const slowBody = "x".repeat(200);
    const slow = await trickle(
      port,
      `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${slowBody.length}\r\n\r\n`,
      slowBody,
      20,
    );
    expect(statusOf(slow.text)).toBe(408);

    agent.release();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    expect(text).toContain("rest");
    expect(text).toContain("event: done");
  });
});
