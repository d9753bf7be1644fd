import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { type AgentStandIn, startAgent } from "@keyport/test-support/agent-stand-in";
import { portOf } from "@keyport/test-support/port";
import type { serve } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp } from "../src/http/serve.js";
import { createApp, parseEnv } from "../src/index.js";
import { type KeyportStandIn, startKeyportStandIn } from "./support/keyport-stand-in.js";
import { AGENT_KEY } from "./support/proxy.js";

// DNS rebinding: a page on evil.example whose name now resolves to the proxy sends requests with
// `Host: evil.example:<port>` and `Origin: http://evil.example:<port>`, which agree with each other.
// Same-origin must come from PUBLIC_ORIGIN (scheme, host and port), never from Host. Here the proxy
// runs as `pnpm start` runs it: PUBLIC_ORIGIN unset, so its default `http://localhost:<PORT>`.

const TOKEN = "kps_0123456789abcdefghijABCDEFGHIJ01";
const COOKIE = `keyport_session=${TOKEN}; keyport_signed_in=1`;

let keyport: KeyportStandIn;
let agent: AgentStandIn;
const running: ReturnType<typeof serve>[] = [];

beforeAll(async () => {
  keyport = await startKeyportStandIn();
  agent = await startAgent();
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.close(true)));
  await Promise.all([keyport.close(), agent.close()]);
});

/** A port free on 127.0.0.1 now: PORT must be known before listening, as PUBLIC_ORIGIN derives from it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const port = portOf(probe.address());
      probe.close(() => resolve(port));
    });
  });
}

async function startOnOwnPort(env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const app = createApp(
    parseEnv({
      PORT: String(port),
      KEYPORT_URL: keyport.url,
      AGENT_URL: agent.url,
      AGENT_API_KEY: AGENT_KEY,
      ...env,
    }),
    { logDestination: { write: () => {} } },
  );
  const server = serveApp(app, { port, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
  running.push(server);
  await server.ready();
  return port;
}

interface Answer {
  status: number;
  body: unknown;
}

/** node:http, so `Host` goes on the wire as given (fetch would set it from the URL). */
function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const body = method === "GET" ? undefined : JSON.stringify({ messages: [{ role: "user", content: "hi" }] });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: {
          cookie: COOKIE,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          const type = res.headers["content-type"] ?? "";
          resolve({
            status: res.statusCode ?? 0,
            body: type.startsWith("application/json") ? JSON.parse(text) : text,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

// Every route that acts with the session cookie or spends an upstream: sign-in and sign-out, tRPC
// mutations and queries, chat.
const ROUTES: [method: string, path: string][] = [
  ["POST", "/api/session"],
  ["DELETE", "/api/session"],
  ["GET", "/api/session"],
  ["POST", "/trpc/keys.create"],
  ["POST", "/trpc/keys.revoke"],
  ["GET", "/trpc/keys.list"],
  ["POST", "/api/chat"],
];

describe.each(["session", "public"])("with CHAT_ACCESS=%s and PUBLIC_ORIGIN unset", (chatAccess) => {
  let port: number;
  beforeAll(async () => {
    port = await startOnOwnPort({ CHAT_ACCESS: chatAccess });
  });

  it.each(ROUTES)(
    "%s %s refuses Host and Origin both evil.example (DNS rebinding) with 403",
    async (method, path) => {
      const seenBefore = keyport.requests.length + agent.calls.length;
      const answer = await send(port, method, path, {
        host: `evil.example:${port}`,
        origin: `http://evil.example:${port}`,
      });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ code: "FORBIDDEN", message: expect.any(String) });
      expect(keyport.requests.length + agent.calls.length).toBe(seenBefore);
    },
  );

  it.each(ROUTES)(
    "%s %s refuses the right host with the wrong scheme (https on an http proxy)",
    async (method, path) => {
      const seenBefore = keyport.requests.length + agent.calls.length;
      for (const origin of [`https://localhost:${port}`, `https://127.0.0.1:${port}`]) {
        const answer = await send(port, method, path, { host: `localhost:${port}`, origin });
        expect(answer.status, origin).toBe(403);
        expect(answer.body).toEqual({ code: "FORBIDDEN", message: expect.any(String) });
      }
      expect(keyport.requests.length + agent.calls.length).toBe(seenBefore);
    },
  );

  it("still serves the dashboard's own origin whatever Host says", async () => {
    const before = keyport.requests.length;
    const answer = await send(port, "POST", "/trpc/keys.create", {
      host: `evil.example:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(answer.status).toBe(200);
    expect(keyport.requests).toHaveLength(before + 1);
    expect(keyport.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("keeps the no-Origin GET rule: a cookie GET without Origin is served, a cross-site one is not", async () => {
    const plain = await send(port, "GET", "/trpc/keys.list", { host: `evil.example:${port}` });
    expect(plain.status).toBe(200);
    const crossSite = await send(port, "GET", "/trpc/keys.list", {
      host: `evil.example:${port}`,
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.status).toBe(403);
  });
});

describe("with PUBLIC_ORIGIN set to an https origin", () => {
  it("refuses http://, the same host over the other scheme", async () => {
    const port = await startOnOwnPort({ PUBLIC_ORIGIN: "https://keys.example" });
    for (const origin of ["http://keys.example", "https://keys.example:8443", `http://localhost:${port}`]) {
      const answer = await send(port, "POST", "/trpc/keys.create", { host: "keys.example", origin });
      expect(answer.status, origin).toBe(403);
    }
    const own = await send(port, "POST", "/trpc/keys.create", {
      host: "evil.example",
      origin: "https://keys.example",
    });
    expect(own.status).toBe(200);
  });
});
