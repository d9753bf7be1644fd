import { type ErrorCode, statusOf } from "./codes.js";
import type { ErrorEnvelope } from "./envelope.js";

/**
 * The socket a node:http `clientError` listener receives, as far as this module uses it (a
 * `stream.Duplex` fits), so the package needs no Node type or API at runtime.
 */
export interface ClientErrorSocket {
  readonly writable: boolean;
  end(chunk: string): unknown;
  destroy(): unknown;
}

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
    code: "BAD_REQUEST", // tRPC has no code for 431; API.md wants tRPC code names
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
 * (431 for oversized headers, 408 for a request timeout, else 400) and closes the connection.
 * @example server.on("clientError", answerClientError)
 */
export function answerClientError(error: Error, socket: ClientErrorSocket): void {
  // A reset peer, a closed socket or a response already under way: nothing sane can be written.
  // `_httpMessage` is the response node:http attached to the socket, if any.
  const pending: unknown = Reflect.get(socket, "_httpMessage");
  const headersSent =
    typeof pending === "object" && pending !== null && Reflect.get(pending, "headersSent") === true;
  if (!socket.writable || headersSent) {
    socket.destroy();
    return;
  }
  const errorCode: unknown = Reflect.get(error, "code");
  const answer = (typeof errorCode === "string" ? ANSWERS[errorCode] : undefined) ?? MALFORMED;
  const body: ErrorEnvelope = { code: answer.code, message: answer.message };
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${new TextEncoder().encode(text).byteLength}\r\n` +
      "Cache-Control: no-store\r\n" +
      "Connection: close\r\n\r\n" +
      text,
  );
}
