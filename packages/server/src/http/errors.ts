import type { ServerResponse } from "node:http";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db/unavailable.js";
import type { ErrorEnvelope } from "../schemas/error.js";

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
  // tRPC owns the code -> status table; using it keeps REST and /trpc answering the same status.
  const status = getHTTPStatusCodeFromError(cause);
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
