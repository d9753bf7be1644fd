import { request as httpRequest } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { expect } from "vitest";
import { portOf } from "../support/port.js";

/** A response read byte for byte, with its header names lowercased. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** What `sendRaw` sends: the path goes on the wire exactly as given (no URL parsing, no folding). */
export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Sends one request over a fresh connection with node:http, so generated paths, header values and
 * bodies reach the server unnormalised, and reads the whole answer.
 */
export function sendRaw(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? "GET",
        path: req.path,
        headers: req.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) headers[name] = String(value);
          resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8") });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(req.body);
  });
}

/**
 * The contract every refused request meets: a 4xx or 5xx whose body is exactly the JSON error
 * envelope (`{ code, message }`, plus `issues` for validation errors, and on a 5xx the `requestId`
 * its `X-Request-Id` header carries), never a stack or h3's own text.
 */
export function expectErrorEnvelope(res: RawResponse): void {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(res.text);
  expect(body).toEqual({
    code: expect.stringMatching(/^[A-Z_]+$/),
    message: expect.any(String),
    ...(typeof body === "object" && body !== null && "issues" in body ? { issues: expect.any(Array) } : {}),
    ...(res.status >= 500 ? { requestId: res.headers["x-request-id"] } : {}),
  });
  expect(res.text).not.toMatch(/\bat .+:\d+:\d+|node_modules|Error:/);
}

/** How the misbehaving upstream answers the next requests. */
export type Misbehaviour =
  /** A well-formed CoinGecko `/simple/price` answer (so a following good request succeeds). */
  | "good"
  /** Accepts the connection and never writes a byte. */
  | "hang"
  /** Destroys the socket as soon as the request arrives. */
  | "reset"
  /** Closes the connection cleanly without answering. */
  | "close"
  /** Bytes that are not HTTP at all. */
  | "not-http"
  /** A 200 whose Content-Length promises more than is sent before the connection is reset. */
  | "truncated"
  /** A 200 chunked body cut off mid-chunk. */
  | "truncated-chunked"
  /** A 200 with a JSON content type and an HTML body. */
  | "garbage-body"
  /** A 200 with valid JSON of the wrong shape. */
  | "wrong-shape"
  /** A 200 with headers at once, then a body that trickles forever. */
  | "drip"
  /** Headers that declare a body far larger than any CoinGecko answer. */
  | "huge-length"
  /** A status line with an impossible code. */
  | "bad-status"
  /** Headers, one SSE chunk, then a reset: a chat agent dying mid-stream. */
  | "stream-then-reset";

/** A raw TCP upstream that misbehaves at the byte level in ways node:http servers cannot. */
export interface MisbehavingUpstream {
  baseUrl: string;
  /** Requests seen, by the first line (`GET /api/v3/simple/price?... HTTP/1.1`). */
  requests: string[];
  behave(next: Misbehaviour): void;
  close(): Promise<void>;
}

const SSE_FIRST = "data: first\n\n";
const GOOD_PRICE = JSON.stringify({ bitcoin: { usd: 100 } });

/** Starts the misbehaving upstream on 127.0.0.1; base URL ends in `/api/v3` like CoinGecko's. */
export async function startMisbehavingUpstream(): Promise<MisbehavingUpstream> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let behaviour: Misbehaviour = "good";

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let head = "";
    socket.on("data", (chunk: Buffer) => {
      if (head.includes("\r\n\r\n")) return;
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      requests.push(head.split("\r\n")[0] ?? "");
      answer(socket, behaviour);
    });
  });

  const answer = (socket: Socket, mode: Misbehaviour) => {
    const status = (line: string, headers: string[]) => `${line}\r\n${headers.join("\r\n")}\r\n\r\n`;
    switch (mode) {
      case "good":
      case "wrong-shape":
      case "garbage-body": {
        const body = mode === "good" ? GOOD_PRICE : mode === "wrong-shape" ? '{"bitcoin":"cheap"}' : "<html>";
        socket.end(
          status("HTTP/1.1 200 OK", [
            "content-type: application/json",
            `content-length: ${Buffer.byteLength(body)}`,
            "connection: close",
          ]) + body,
        );
        return;
      }
      case "hang":
        return;
      case "reset":
        socket.resetAndDestroy();
        return;
      case "close":
        socket.end();
        return;
      case "not-http":
        socket.end("SSH-2.0-OpenSSH_9.6\r\n\x00\xff\xfe garbage\r\n\r\n");
        return;
      case "truncated":
        socket.write(
          status("HTTP/1.1 200 OK", ["content-type: application/json", "content-length: 1000"]) +
            '{"bitcoin":{"us',
        );
        later(() => socket.resetAndDestroy(), 20);
        return;
      case "truncated-chunked":
        socket.write(
          status("HTTP/1.1 200 OK", ["content-type: application/json", "transfer-encoding: chunked"]) +
            '40\r\n{"bitcoin":',
        );
        later(() => socket.destroy(), 20);
        return;
      case "drip": {
        socket.write(status("HTTP/1.1 200 OK", ["content-type: application/json", "content-length: 100000"]));
        const tick = () => {
          if (socket.destroyed) return;
          socket.write(" ");
          later(tick, 100);
        };
        tick();
        return;
      }
      case "huge-length":
        socket.write(
          status("HTTP/1.1 200 OK", ["content-type: application/json", "content-length: 99999999999"]),
        );
        later(() => socket.destroy(), 2_000);
        return;
      case "bad-status":
        socket.end("HTTP/1.1 999999 Whatever\r\ncontent-length: 2\r\n\r\n{}");
        return;
      case "stream-then-reset":
        socket.write(
          status("HTTP/1.1 200 OK", ["content-type: text/event-stream", "transfer-encoding: chunked"]) +
            `${SSE_FIRST.length.toString(16)}\r\n${SSE_FIRST}\r\n`,
        );
        later(() => socket.resetAndDestroy(), 100);
        return;
    }
  };

  const later = (fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${portOf(server.address())}/api/v3`,
    requests,
    behave(next) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
