import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { answerClientError, CLIENT_ERROR_LINGER_MS, type ClientErrorSocket } from "./client-error.js";

/** Sends raw bytes and collects everything until the server closes. */
function sendRaw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

function parse(raw: string): { status: number; headers: string; body: unknown } {
  const [head = "", body = ""] = raw.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

/** A socket that records what is written to it; `flush` runs the callback of its `end`. */
function recordingSocket(writable: boolean, bytesWritten = 0) {
  const written: string[] = [];
  const flushed: (() => void)[] = [];
  let destroyed = false;
  const socket: ClientErrorSocket = {
    writable,
    bytesWritten,
    end: (chunk: string, callback: () => void) => {
      written.push(chunk);
      flushed.push(callback);
    },
    destroy: () => {
      destroyed = true;
    },
  };
  const flush = () => {
    for (const callback of flushed) callback();
  };
  return { socket, written, isDestroyed: () => destroyed, flush };
}

describe("answerClientError on a real node:http server", () => {
  let server: Server;
  let port = 0;
  const marker = "kp_rawmarker0123456789";
  beforeAll(async () => {
    server = createServer({ maxHeaderSize: 4096 }, (_req, res) => res.end("ok"));
    server.on("clientError", answerClientError);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address !== null ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers a malformed request line with a 400 envelope, closing and echoing nothing", async () => {
    const raw = await sendRaw(port, `NOT AN HTTP ${marker} REQUEST\r\n\r\n`);
    const answer = parse(raw);
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain("content-type: application/json; charset=utf-8");
    expect(answer.headers).toContain("connection: close");
    expect(answer.headers).toContain("cache-control: no-store");
    expect(answer.body).toEqual({ code: "BAD_REQUEST", message: "Malformed HTTP request" });
    expect(raw).not.toContain(marker);
  });

  it("answers oversized headers with 431 and the BAD_REQUEST code", async () => {
    const raw = await sendRaw(
      port,
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${marker}${"a".repeat(8192)}\r\n\r\n`,
    );
    const answer = parse(raw);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ code: "BAD_REQUEST", message: "The request headers are too large" });
    expect(raw).not.toContain(marker);
  });
});

describe("answerClientError on sockets it cannot answer", () => {
  it("answers a request timeout with 408 TIMEOUT", () => {
    const { socket, written } = recordingSocket(true);
    answerClientError(Object.assign(new Error("timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" }), socket);
    expect(written.join("")).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(written.join("")).toContain('{"code":"TIMEOUT","message":"The request took too long to arrive"}');
  });

  it("destroys a socket that can no longer be written, or that has already written a response", () => {
    const closed = recordingSocket(false);
    answerClientError(new Error("reset"), closed.socket);
    expect(closed.isDestroyed()).toBe(true);
    expect(closed.written).toEqual([]);

    const started = recordingSocket(true, 120);
    answerClientError(new Error("late"), started.socket);
    expect(started.isDestroyed()).toBe(true);
    expect(started.written).toEqual([]);
  });

  it("destroys the socket once the answer is flushed, without waiting for the client", () => {
    const { socket, isDestroyed, flush } = recordingSocket(true);
    answerClientError(new Error("bad"), socket);
    expect(isDestroyed()).toBe(false);
    flush();
    expect(isDestroyed()).toBe(true);
  });

  it("destroys the socket 1 s after the answer when it never flushes", () => {
    vi.useFakeTimers();
    try {
      const { socket, isDestroyed } = recordingSocket(true);
      answerClientError(new Error("bad"), socket);
      vi.advanceTimersByTime(CLIENT_ERROR_LINGER_MS - 1);
      expect(isDestroyed()).toBe(false);
      vi.advanceTimersByTime(1);
      expect(isDestroyed()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
