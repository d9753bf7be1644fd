import { type ErrorCode, statusOf } from "./codes.js";
import type { ErrorEnvelope } from "./envelope.js";

/**
 * The socket a node:http `clientError` listener receives, as far as this module uses it (a
 * `stream.Duplex` fits), so the package needs no Node type or API at runtime.
 */
export interface ClientErrorSocket {
  readonly writable: boolean;
  /** Bytes this connection has written so far (net.Socket's public counter). */
  readonly bytesWritten: number;
  /** Writes `chunk`, then calls `flushed` once it was handed to the system (or the write failed). */
  end(chunk: string, flushed: () => void): unknown;
  destroy(): unknown;
}

/** How long an answered socket may wait for its answer to flush before it is destroyed anyway. */
export const CLIENT_ERROR_LINGER_MS = 1_000;

interface Answer {
  status: number;
  reason: string;
  code: ErrorCode;
  message: string;
}

// Node answers what it cannot parse with a bare status line; ours carries the JSON envelope instead.
// The text is fixed: never a byte of the request, whose raw packet may hold keys or tokens.
const ANSWERS: Readonly<Record<string, Answer>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "BAD_REQUEST", // tRPC has no code for 431; docs/api.md uses tRPC code names
    message: "The request headers are too large",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: statusOf("TIMEOUT"),
    reason: "Request Timeout",
    code: "TIMEOUT",
    message: "The request took too long to arrive",
  },
};

const MALFORMED: Answer = {
  status: statusOf("BAD_REQUEST"),
  reason: "Bad Request",
  code: "BAD_REQUEST",
  message: "Malformed HTTP request",
};

/**
 * node:http `clientError` listener: answers a request the parser rejected with the JSON envelope
 * (431 for oversized headers, 408 for a request timeout, else 400) and destroys the connection once
 * the answer is flushed, or `CLIENT_ERROR_LINGER_MS` after it at the latest. It does not wait for the
 * client's FIN: a client that never reads and never closes would otherwise hold the socket (and a
 * descriptor) in FIN-WAIT-2 for as long as it likes (see docs/decisions.md, "The server's HTTP edge").
 * @example server.on("clientError", answerClientError)
 */
export function answerClientError(error: Error, socket: ClientErrorSocket): void {
  // A reset peer or a closed socket: nothing can be written. A connection that has already written
  // anything may have a response under way (node parses a pipelined request while it answers the
  // one before, and a handler may answer before a body is in); node keeps that response private, so
  // the one public sign is the socket's byte count. Such a connection is closed without an answer
  // rather than risk bytes in the middle of another response; a client retries on a new one.
  if (!socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const errorCode: unknown = Reflect.get(error, "code");
  const answer = (typeof errorCode === "string" ? ANSWERS[errorCode] : undefined) ?? MALFORMED;
  const body: ErrorEnvelope = { code: answer.code, message: answer.message };
  const text = JSON.stringify(body);
  const deadline = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${new TextEncoder().encode(text).byteLength}\r\n` +
      "Cache-Control: no-store\r\n" +
      "Connection: close\r\n\r\n" +
      text,
    () => {
      clearTimeout(deadline);
      socket.destroy();
    },
  );
}
