import type { ServerResponse } from "node:http";
import { errorBody, issuesFromZod, statusOf, withRequestId } from "@keyport/errors";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db/unavailable.js";
import { retryAfterOf } from "../ratelimit/retry-after.js";
import { refusalOf } from "../refusal.js";
import type { ErrorEnvelope } from "../schemas/error.js";
import { BODY_TOO_LARGE } from "./body.js";
import { requestIdOf } from "./request-id.js";

/** The message of every 400 that carries `issues`, on REST and tRPC alike. */
export const INPUT_VALIDATION_FAILED = "Input validation failed";

/**
 * Maps any thrown value to the REST error envelope. Input validation errors carry `issues`, a
 * refusal with a reason (refusal.ts) its `reason` and `details`; an unreachable database is 503 (retry); other unexpected errors become a bare 500 so no stack,
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
    return { status, body: errorBody(cause.code, INPUT_VALIDATION_FAILED, issuesFromZod(cause.cause)) };
  }
  // errorBody keeps a 4xx message and our fixed 503 texts; any other 5xx says "Internal server error".
  return { status, body: errorBody(cause.code, cause.message, undefined, refusalOf(cause)) };
}

const JSON_TYPE = "application/json; charset=utf-8";

/** Writes a JSON response, with `headers` added (e.g. `cache-control`). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  const payload = JSON.stringify(body);
  const length = Buffer.byteLength(payload);
  res.writeHead(
    status,
    headers === undefined
      ? { "content-type": JSON_TYPE, "content-length": length }
      : { ...headers, "content-type": JSON_TYPE, "content-length": length },
  );
  res.end(payload);
}

/**
 * A verification's answer (JSON text already serialised, e.g. a memoised one: json-memo.ts) with
 * `Cache-Control: no-store` and the request's id: every header in one literal, handed to
 * `writeHead` on a response with no header set before, which is node's cheapest way to answer
 * (docs/benchmarks.md).
 */
export function sendNoStoreJsonText(
  res: ServerResponse,
  status: number,
  payload: string,
  requestId: string,
): void {
  res.writeHead(status, {
    "cache-control": "no-store",
    "content-type": JSON_TYPE,
    "content-length": Buffer.byteLength(payload),
    // REQUEST_ID_HEADER, spelled out: a computed key would make each literal a slower object.
    "x-request-id": requestId,
  });
  res.end(payload);
}

/**
 * Writes the error envelope for any thrown value; a 429 whose cause is a `RetryAfter` adds
 * `Retry-After`, and a 5xx carries the request's id as `requestId` (the one its header carries).
 */
export function sendError(res: ServerResponse, cause: unknown, headers?: Record<string, string>): void {
  const { status, body } = toErrorResponse(cause);
  const retryAfter = status === 429 ? retryAfterOf(cause) : undefined;
  sendJson(
    res,
    status,
    withRequestId(status, body, requestIdOf(res)),
    retryAfter === undefined ? headers : { ...headers, "retry-after": String(retryAfter) },
  );
}

/**
 * The fixed text for an error tRPC raises itself, whose own message quotes the request: an unknown
 * procedure's path, the content type, the method. `type` is tRPC's procedure type for the call,
 * `"unknown"` when no procedure matched. Undefined for every other error (its message stays).
 * @example trpcOwnMessage(new TRPCError({ code: "NOT_FOUND", message: 'No procedure found on path "x"' }), "unknown") // "No such procedure"
 */
export function trpcOwnMessage(error: TRPCError, type: string): string | undefined {
  switch (error.code) {
    case "NOT_FOUND":
      return type === "unknown" ? NO_SUCH_PROCEDURE : undefined;
    case "UNSUPPORTED_MEDIA_TYPE":
      return "The body must be application/json";
    case "METHOD_NOT_SUPPORTED":
      return "Queries take GET and mutations take POST";
    case "PAYLOAD_TOO_LARGE":
      return BODY_TOO_LARGE;
    default:
      return undefined;
  }
}

/** What `/trpc/<anything unknown>` answers (404 `NOT_FOUND`): never the path it was asked for. */
export const NO_SUCH_PROCEDURE = "No such procedure";
