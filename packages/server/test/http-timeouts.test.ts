import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp, HTTP_TIMEOUTS } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { openTestPglite } from "./support/databases.js";
import { trickle } from "./support/slow-client.js";

// Slow clients. The real numbers (10 s of headers, 30 s of request) are held by
// test/slow-clients.test.ts in the slow tier; here the same server runs with short injected ones.
const SHORT = {
  headersTimeout: 300,
  requestTimeout: 600,
  keepAliveTimeout: 1_000,
  connectionsCheckingInterval: 25,
};
const TIMEOUT_BODY = '{"code":"TIMEOUT","message":"The request took too long to arrive"}';

describe("the server's node:http timeouts", () => {
  let database: Database;
  let app: App;
  let port: number;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:", LOG_LEVEL: "silent" }), {
      database,
      httpTimeouts: SHORT,
    });
    port = await app.listen(0, "127.0.0.1");
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("are the decided ones by default, and checked every second", () => {
    expect(HTTP_TIMEOUTS).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    });
  });

  it("answer headers sent one byte at a time with 408 and close the connection", async () => {
    const head = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(200)}\r\n\r\n`;
    const result = await trickle(port, "", head, 10, 10_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.text).toContain(TIMEOUT_BODY);
    // Cut mid-headers, long before the whole head had been written.
    expect(result.written).toBeLessThan(head.length);
  });

  it.each([
    ["REST", "/api-keys"],
    ["the verify fast route", "/api-keys/verify"],
    ["tRPC", "/trpc/keys.verify"],
  ])("answer a body sent one byte at a time on %s with 408 and close the connection", async (_name, path) => {
    const body = `{"key":"${"k".repeat(300)}"}`;
    const head =
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    const result = await trickle(port, head, body, 10, 10_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.text).toContain(TIMEOUT_BODY);
    expect(result.written).toBeLessThan(body.length);
  });

  it("tell keep-alive clients the idle timeout (the slow tier waits for the close itself)", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    await response.text();
    expect(response.headers.get("keep-alive")).toBe("timeout=1");
  });
});
