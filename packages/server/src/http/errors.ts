import type { ServerResponse } from "node:http";
import { errorBody, issuesFromZod, statusOf } from "@keyport/errors";
import { TRPCError } from "@trpc/server";
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
    return { status: 503, body: errorBody("SERVICE_UNAVAILABLE", DATABASE_UNAVAILABLE) };
  }
  if (!(cause instanceof TRPCError)) {
    return { status: 500, body: errorBody("INTERNAL_SERVER_ERROR", "Internal server error") };
  }
  // The same code -> status table as /trpc, so REST and tRPC answer the same status.
  const status = statusOf(cause.code);
  if (cause.code === "BAD_REQUEST" && cause.cause instanceof ZodError) {
    return { status, body: errorBody(cause.code, "Input validation failed", issuesFromZod(cause.cause)) };
  }
  // errorBody keeps a 4xx message and our fixed 503 texts; any other 5xx says "Internal server error".
  return { status, body: errorBody(cause.code, cause.message) };
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
