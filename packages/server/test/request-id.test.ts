import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { sendBytes } from "@keyport/test-support/raw-tcp";
import { signIn } from "@keyport/test-support/siwe";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { newKey } from "../src/keys/secret.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";

// X-Request-Id end to end (docs/decisions.md, "Request ids"): the caller's id when it is one, else a
// fresh one, on every answer and every log line of the request, and in a 5xx body.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface LogLine {
  msg: string;
  reqId?: string;
  level: number;
}

describe("request ids on the server", () => {
  const lines: LogLine[] = [];
  let database: Database;
  let app: App;
  let baseUrl: string;
  let port: number;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:", NONCE_RATE_LIMIT: "off" }), {
      database,
      // debug: the verify fast route's request line too.
      logger: createLogger(
        "debug",
        logSink(lines, (line) => JSON.parse(line)),
      ),
    });
    port = await app.listen(0, "127.0.0.1");
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const withId = (id: string) => ({ headers: { "x-request-id": id } });

  it.each([
    ["a REST success", "POST", "/auth/nonce", 200],
    ["an unknown route", "GET", "/no/such/route", 404],
    ["the verify fast route", "POST", "/api-keys/verify", 400],
    ["tRPC", "GET", "/trpc/auth.session", 401],
    ["/healthz", "GET", "/healthz", 200],
    ["/openapi.json", "GET", "/openapi.json", 200],
    ["the API reference script", "GET", "/docs/scalar.js", 200],
  ])(
    "echoes a valid id on %s, and writes it on that request's log line",
    async (_name, method, path, status) => {
      const id = `test.${method}-${path.length}_${Date.now()}`;
      const answer = await request(baseUrl, method, path, withId(id));
      expect(answer.status).toBe(status);
      expect(answer.headers.get("x-request-id")).toBe(id);
      const own = lines.filter((line) => line.reqId === id);
      expect(own.map((line) => line.msg)).toContain("request");
    },
  );

  // A fast route writes the header itself (http/fast-route.ts): each of its ways of answering.
  const json = "application/json";
  it.each([
    ["a verification", "/api-keys/verify", '{ "key": "kp_unknown" }', json, 200],
    ["a verification the fast scan reads", "/api-keys/verify", '{"key":"kp_unknown"}', json, 200],
    ["a refused verify body", "/api-keys/verify", '{"key":1}', json, 400],
    ["a verify body of another type", "/api-keys/verify", "key=kp", "text/plain", 415],
    ["a verify body declared too large", "/api-keys/verify", "", json, 413],
    ["a tRPC verification", "/trpc/keys.verify", '{"json":{"key":"kp_unknown"}}', json, 200],
  ])("echoes a valid id on %s from a fast route", async (_name, path, rawBody, type, status) => {
    const id = `fast-${status}-${path.length}-${rawBody.length}`;
    let header: string | null | undefined;
    if (status === 413) {
      const answer = await sendBytes(
        port,
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\n` +
          `Content-Length: 70000\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(status);
      header = answer.headers["x-request-id"];
    } else {
      const answer = await request(baseUrl, "POST", path, {
        rawBody,
        headers: { "content-type": type, "x-request-id": id },
      });
      expect(answer.status).toBe(status);
      header = answer.headers.get("x-request-id");
    }
    expect(header).toBe(id);
    expect(lines.filter((line) => line.reqId === id).map((line) => line.msg)).toContain("request");
  });

  it("writes the id on the sign-in refused line, beside the request line", async () => {
    const id = "sign-in-refused-1";
    const answer = await request(baseUrl, "POST", "/auth/verify", {
      ...withId(id),
      body: { message: "not a SIWE message", signature: "0x00" },
    });
    expect(answer.status).toBe(401);
    expect(lines.filter((line) => line.reqId === id).map((line) => line.msg)).toEqual([
      "sign-in refused",
      "request",
    ]);
  });

  it.each([
    ["65 characters", "x".repeat(65)],
    ["a space", "two words"],
    ["non-ASCII", "caf\u00e9"],
    ["a comma (a repeated header)", "a,b"],
  ])("replaces an id with %s by a fresh UUID", async (_name, id) => {
    const answer = await request(baseUrl, "GET", "/healthz", withId(id));
    const given = answer.headers.get("x-request-id") ?? "";
    expect(given).toMatch(UUID);
    expect(lines.some((line) => line.reqId === given && line.msg === "request")).toBe(true);
    expect(lines.some((line) => line.reqId === id)).toBe(false);
  });

  it("gives a fresh id to each request that brings none", async () => {
    const first = await request(baseUrl, "GET", "/healthz");
    const second = await request(baseUrl, "GET", "/healthz");
    expect(first.headers.get("x-request-id")).toMatch(UUID);
    expect(second.headers.get("x-request-id")).toMatch(UUID);
    expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
  });

  it("lets no header in through a newline attempt", async () => {
    const answer = await sendBytes(
      port,
      "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: abc\r\n X-Injected: 1\r\nConnection: close\r\n\r\n",
    );
    // Node refuses a folded header line outright; either way nothing the caller sent is echoed.
    expect(answer.text).not.toMatch(/x-injected/i);
    if (answer.status === 200) expect(answer.headers["x-request-id"]).toMatch(UUID);
    else expect(answer.status).toBe(400);
  });

  describe("on a 5xx", () => {
    let token: string;
    let wallet: string;
    beforeAll(async () => {
      ({ token, wallet } = await signIn(baseUrl));
      await database.db.execute(sql`alter table api_keys rename to api_keys_broken`);
    });
    afterAll(async () => {
      await database.db.execute(sql`alter table api_keys_broken rename to api_keys`);
    });

    it.each([
      ["a REST route", "report-this-500", "procedure failed"],
      ["the verify fast route", "verify-500", "verification failed"],
    ])(
      "carries in %s's body the id its header carries, written on the error's log line",
      async (_, id, line) => {
        const answer =
          line === "procedure failed"
            ? await request(baseUrl, "GET", `/api-keys/${wallet}`, { token, ...withId(id) })
            : await request(baseUrl, "POST", "/api-keys/verify", {
                body: { key: newKey("kp").key },
                ...withId(id),
              });
        expect(answer.status).toBe(500);
        expect(answer.headers.get("x-request-id")).toBe(id);
        expect(answer.body).toEqual({
          code: "INTERNAL_SERVER_ERROR",
          message: "Internal server error",
          requestId: id,
        });
        const own = lines.filter((entry) => entry.reqId === id);
        expect(own.map((entry) => entry.msg)).toEqual([line, "request"]);
        expect(own[0]?.level).toBe(50);
      },
    );

    it("carries a fresh id in the body when the caller sent none", async () => {
      const answer = await request(baseUrl, "GET", `/api-keys/${wallet}`, { token });
      const header = answer.headers.get("x-request-id") ?? "";
      expect(header).toMatch(UUID);
      expect(answer.body).toMatchObject({ requestId: header });
    });

    it("carries it in tRPC's error data too, and only on a 5xx", async () => {
      const id = "trpc-500";
      const input = encodeURIComponent(JSON.stringify({ json: { wallet } }));
      const failed = await request(baseUrl, "GET", `/trpc/keys.list?input=${input}`, {
        token,
        ...withId(id),
      });
      expect(failed.status).toBe(500);
      expect(failed.headers.get("x-request-id")).toBe(id);
      expect(failed.body).toMatchObject({ error: { json: { data: { requestId: id } } } });
      expect(lines.filter((line) => line.reqId === id).map((line) => line.msg)).toEqual([
        "procedure failed",
        "request",
      ]);

      const refused = await request(baseUrl, "GET", `/trpc/keys.list?input=${input}`, withId("trpc-401"));
      expect(refused.status).toBe(401);
      // superjson sends the unset field as null, as it does `stack` and `issues`.
      expect(refused.body).toMatchObject({ error: { json: { data: { httpStatus: 401, requestId: null } } } });
      const rest404 = await request(baseUrl, "GET", "/no/such/route", withId("rest-404"));
      expect(rest404.body).toEqual({ code: "NOT_FOUND", message: "No such route" });
    });
  });
});
