import { request } from "@keyport/test-support/http";
import { sendBytes } from "@keyport/test-support/raw-tcp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// Requests node:http cannot parse never reach our handler; they must still get the JSON envelope.
describeDatabases("unparseable requests", (target) => {
  let server: TestServer;
  let port: number;
  const marker = "kp_rawmarker0123456789";
  beforeAll(async () => {
    server = await startTestServer(target);
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(() => server.close());

  it("answers a malformed request line with a 400 JSON envelope, closing and echoing nothing", async () => {
    const answer = await sendBytes(port, `NOT AN HTTP ${marker} REQUEST\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toEqual({ code: "BAD_REQUEST", message: expect.any(String) });
    expect(answer.text).not.toContain(marker);
  });

  it("answers 20 KiB of headers with a 431 JSON envelope, echoing nothing", async () => {
    const big = `${marker}${"a".repeat(20 * 1024)}`;
    const answer = await sendBytes(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toEqual({
      code: "BAD_REQUEST",
      message: expect.any(String),
    });
    expect(answer.text).not.toContain(marker);
  });

  it("stays up: a good request after the bad ones succeeds", async () => {
    await sendBytes(port, "\x00\x01\x02 garbage\r\n\r\n");
    const { status, body } = await request(server.baseUrl, "GET", "/healthz");
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true });
  });
});
