import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type App,
  createApp as createServerApp,
  createLogger as createServerLogger,
  parseEnv as parseServerEnv,
} from "@keyport/server";
import { sendBytes } from "@keyport/test-support/raw-tcp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

// X-Request-Id end to end through the proxy (docs/decisions.md, "Request ids"): the browser's id when
// it is one, else a fresh one, on every answer and access line, in a 5xx body, and sent on to the
// Keyport server, whose log lines of the call then carry it too.

const HOST = "dashboard.test:3001";
const ORIGIN = `http://${HOST}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface LogLine {
  msg: string;
  reqId?: string;
  route?: string;
  path?: string;
}

let root: string;
let cg: CoinGeckoStandIn;
let server: App;
let serverUrl: string;
const serverLines: LogLine[] = [];
let proxy: RunningProxy;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "keyport-request-id-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), "<!doctype html>");
  writeFileSync(join(root, "assets", "app-abc123.js"), "console.log(1)");
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  // The real server, its log captured (test/support/keyport-server.ts starts it silenced).
  const template = inject("pgliteTemplate");
  const dataDir = template ? mkdtempSync(join(inject("pgliteCopies"), "request-id-")) : undefined;
  if (template && dataDir) cpSync(template, join(dataDir, "pglite"), { recursive: true });
  server = await createServerApp(
    parseServerEnv({
      ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: "memory:" }),
      NONCE_RATE_LIMIT: "off",
      SIWE_DOMAINS: HOST,
    }),
    {
      logger: createServerLogger("info", {
        write: (line: string) => void serverLines.push(JSON.parse(line)),
      }),
    },
  );
  serverUrl = `http://127.0.0.1:${await server.listen(0, "127.0.0.1")}`;
  proxy = await startProxy({
    KEYPORT_URL: serverUrl,
    PUBLIC_ORIGIN: ORIGIN,
    COINGECKO_BASE_URL: cg.baseUrl,
    COINGECKO_API_KEY: COINGECKO_KEY,
    DASHBOARD_DIR: root,
  });
}, 60_000);
afterAll(async () => {
  await proxy.close();
  await server.close();
  await cg.close();
  rmSync(root, { recursive: true, force: true });
});

const accessLines = (): LogLine[] =>
  proxy.logLines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.msg === "request");
const withId = (id: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), "x-request-id": id },
});

describe("request ids on the proxy", () => {
  it.each([
    ["/api/meta", "/api/meta", 200],
    ["an unknown API route", "/api/no-such-route", 404],
    ["a static file", "/assets/app-abc123.js", 200],
    ["the dashboard's page", "/", 200],
    ["a price (a miss)", "/api/prices/simple?ids=ethereum&vs_currencies=usd", 200],
  ])("echoes a valid id on %s and writes it on the access line", async (_name, path, status) => {
    const id = `proxy-${status}-${path.length}`;
    const answer = await proxy.call(path, withId(id));
    expect(answer.status).toBe(status);
    expect(answer.headers["x-request-id"]).toBe(id);
    expect(accessLines().filter((line) => line.reqId === id)).toHaveLength(1);
  });

  it("puts each request's own id on a cached price hit, whose headers every hit shares", async () => {
    const path = "/api/prices/simple?ids=bitcoin&vs_currencies=usd";
    await proxy.call(path);
    const hits = await Promise.all(["hit-a", "hit-b", "hit-c"].map((id) => proxy.call(path, withId(id))));
    expect(hits.map((hit) => hit.headers["x-cache"])).toEqual(["HIT", "HIT", "HIT"]);
    expect(hits.map((hit) => hit.headers["x-request-id"])).toEqual(["hit-a", "hit-b", "hit-c"]);
    const fresh = await proxy.call(path);
    expect(fresh.headers["x-request-id"]).toMatch(UUID);
  });

  it.each([
    ["65 characters", "x".repeat(65)],
    ["a space", "two words"],
    ["non-ASCII", "caf\u00e9"],
  ])("replaces an id with %s by a fresh UUID", async (_name, id) => {
    const answer = await proxy.call("/api/meta", withId(id));
    const given = answer.headers["x-request-id"] ?? "";
    expect(given).toMatch(UUID);
    expect(accessLines().some((line) => line.reqId === given)).toBe(true);
    expect(accessLines().some((line) => line.reqId === id)).toBe(false);
  });

  it("lets no header in through a newline attempt", async () => {
    const answer = await sendBytes(
      Number(new URL(proxy.url).port),
      "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: abc\r\n X-Injected: 1\r\nConnection: close\r\n\r\n",
    );
    expect(answer.text).not.toMatch(/x-injected/i);
    if (answer.status === 200) expect(answer.headers["x-request-id"]).toMatch(UUID);
    else expect(answer.status).toBe(400);
  });

  it("carries in a 5xx body the id its header carries", async () => {
    cg.behave({ kind: "status", status: 500 });
    try {
      const answer = await proxy.call(
        "/api/prices/simple?ids=dogecoin&vs_currencies=usd",
        withId("cg-failed-1"),
      );
      expect(answer.status).toBe(502);
      expect(answer.headers["x-request-id"]).toBe("cg-failed-1");
      expect(JSON.parse(answer.text)).toEqual({
        code: "BAD_GATEWAY",
        message: expect.any(String),
        requestId: "cg-failed-1",
      });
      const fresh = await proxy.call("/api/prices/simple?ids=litecoin&vs_currencies=usd");
      expect(JSON.parse(fresh.text)).toMatchObject({ requestId: fresh.headers["x-request-id"] });
      expect(fresh.headers["x-request-id"]).toMatch(UUID);
    } finally {
      cg.behave({ kind: "default" });
    }
  });

  it("sends the browser's id on to the server with the /trpc forward, where its log line shows it", async () => {
    const answer = await proxy.call(
      "/trpc/auth.session",
      withId("forwarded-trpc-1", { headers: { origin: ORIGIN } }),
    );
    expect(answer.status).toBe(401);
    expect(answer.headers["x-request-id"]).toBe("forwarded-trpc-1");
    const own = serverLines.filter((line) => line.reqId === "forwarded-trpc-1");
    expect(own.map((line) => `${line.msg} ${line.route}`)).toEqual(["request /trpc/auth.session"]);
  });

  it("sends it on with the session routes' calls too", async () => {
    const answer = await proxy.call(
      "/api/session",
      withId("forwarded-sign-in-1", {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ message: "not a SIWE message", signature: "0x00" }),
      }),
    );
    expect(answer.status).toBe(401);
    expect(answer.headers["x-request-id"]).toBe("forwarded-sign-in-1");
    const own = serverLines.filter((line) => line.reqId === "forwarded-sign-in-1");
    expect(own.map((line) => line.msg)).toEqual(["sign-in refused", "request"]);
  });

  it("gives the server the proxy's own fresh id when the browser sent none", async () => {
    const answer = await proxy.call("/trpc/auth.session", { headers: { origin: ORIGIN } });
    const id = answer.headers["x-request-id"] ?? "";
    expect(id).toMatch(UUID);
    expect(serverLines.some((line) => line.reqId === id && line.msg === "request")).toBe(true);
  });
});
