import type { ServerResponse } from "node:http";
import { type TRPC_ERROR_CODE_KEY, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db/unavailable.js";
import type { ErrorEnvelope } from "../schemas/error.js";

/** The HTTP status of every tRPC error code; the compiler checks the table is complete. */
export const HTTP_STATUS_BY_CODE: Record<TRPC_ERROR_CODE_KEY, number> = {
  PARSE_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  PRECONDITION_REQUIRED: 428,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_SERVER_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

/**
 * Maps any thrown value to the REST error envelope. Input validation errors carry `issues`;
 * an unreachable database is 503 (retry); other unexpected errors become a bare 500 so no stack,
 * SQL or secret can leak.
 */
export function toErrorResponse(cause: unknown): { status: number; body: ErrorEnvelope } {
  if (isDatabaseUnavailable(cause)) {
    return { status: 503, body: { code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE } };
  }
  if (!(cause instanceof TRPCError)) {
    return { status: 500, body: { code: "INTERNAL_SERVER_ERROR", message: "Internal server error" } };
  }
  const status = HTTP_STATUS_BY_CODE[cause.code];
  if (cause.code === "BAD_REQUEST" && cause.cause instanceof ZodError) {
    const issues = cause.cause.issues.map((issue) => ({
      path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
      message: issue.message,
    }));
    return { status, body: { code: cause.code, message: "Input validation failed", issues } };
  }
  // Our own 503 messages are fixed texts; any other 5xx message could carry internals.
  const message =
    cause.code === "SERVICE_UNAVAILABLE"
      ? cause.message
      : status >= 500
        ? "Internal server error"
        : cause.message;
  return { status, body: { code: cause.code, message } };
}

/** Writes a JSON response, with `headers` added (e.g. `cache-control`). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** Writes the error envelope for any thrown value. */
export function sendError(res: ServerResponse, cause: unknown, headers?: Record<string, string>): void {
  const { status, body } = toErrorResponse(cause);
  sendJson(res, status, body, headers);
}
