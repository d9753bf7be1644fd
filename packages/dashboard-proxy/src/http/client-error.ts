import { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorCode, ErrorEnvelope } from "./errors.js";
import { ERROR_STATUS } from "./errors.js";

// Requests node:http cannot parse never reach h3, and Node would answer them with a bare status line.
// Ours carry the JSON envelope. The text is fixed: never a byte of the request, which may hold secrets.
const ANSWERS: Record<string, { status: number; code: ErrorCode; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: "BAD_REQUEST", // tRPC has no 431 code; API.md wants tRPC code names
    reason: "Request Header Fields Too Large",
    message: "The request headers are too large",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: ERROR_STATUS.TIMEOUT,
    code: "TIMEOUT",
    reason: "Request Timeout",
    message: "The request took too long to arrive",
  },
};

const MALFORMED = {
  status: ERROR_STATUS.BAD_REQUEST,
  code: "BAD_REQUEST",
  reason: "Bad Request",
  message: "Malformed HTTP request",
} as const;

/**
 * node:http `clientError` listener: answers a request the parser rejected with `{ code, message }`
 * JSON (431 for oversized headers, 408 for a request timeout, else 400) and closes the connection.
 * @example nodeServer.on("clientError", answerClientError)
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
  const body: ErrorEnvelope = { code: answer.code, message: answer.message };
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      "Cache-Control: no-store\r\n" +
      "Connection: close\r\n\r\n" +
      text,
  );
}
