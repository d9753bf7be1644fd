import { sendBytes } from "@keyport/test-support/raw-tcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./support/proxy.js";

// Requests node:http cannot parse never reach h3; they must still get the JSON envelope.
describe("unparseable requests", () => {
  let proxy: RunningProxy;
  let port: number;
  const marker = "rawmarker-0123456789";
  beforeAll(async () => {
    proxy = await startProxy({});
    port = Number(new URL(proxy.url).port);
  });
  afterAll(() => proxy.close());

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
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toEqual({
      code: "BAD_REQUEST",
      message: expect.any(String),
    });
    expect(answer.text).not.toContain(marker);
  });

  it("stays up: a good request after the bad ones succeeds", async () => {
    const garbage = await sendBytes(port, "\x00\x01\x02 garbage\r\n\r\n");
    expect(garbage.status).toBe(400);
    const res = await proxy.call("/healthz");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ ok: true });
  });
});
