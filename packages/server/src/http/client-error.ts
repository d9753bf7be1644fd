import { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

// Node answers what it cannot parse with a bare status line; ours carries the JSON envelope instead.
// The body is fixed text: never a byte of the request (the raw packet may hold keys or tokens).
const ANSWERS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "BAD_REQUEST", // tRPC has no 431 code; API.md wants tRPC code names
    message: "The request headers are too large",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    code: "TIMEOUT",
    message: "The request took too long to arrive",
  },
};

const MALFORMED = {
  status: 400,
  reason: "Bad Request",
  code: "BAD_REQUEST",
  message: "Malformed HTTP request",
};

/**
 * node:http `clientError` listener: answers a request the parser rejected with `{ code, message }`
 * JSON (431 for oversized headers, 408 for a request timeout, else 400) and closes the connection.
 * @example server.on("clientError", answerClientError)
 */
export function answerClientError(error: Error, socket: Duplex): void {
  // A reset peer, a closed socket or a response already under way: nothing sane can be written.
  const pending: unknown = Reflect.get(socket, "_httpMessage");
  if (!socket.writable || (pending instanceof ServerResponse && pending.headersSent)) {
    socket.destroy();
    return;
  }
  const errorCode: unknown = Reflect.get(error, "code");
  const answer = (typeof errorCode === "string" ? ANSWERS[errorCode] : undefined) ?? MALFORMED;
  const body = JSON.stringify({ code: answer.code, message: answer.message });
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Cache-Control: no-store\r\n" +
      "Connection: close\r\n\r\n" +
      body,
  );
}
