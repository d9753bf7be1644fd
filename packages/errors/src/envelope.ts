import { type ErrorCode, isErrorCode, statusOf } from "./codes.js";
import { type ErrorIssue, readIssues } from "./issues.js";
import { isReasonText } from "./reason.js";
import { isRequestId } from "./request-id.js";

/**
 * The one error body of every Keyport service (docs/api.md):
 * `{ code, message, issues?, reason?, details?, requestId? }`.
 */
export interface ErrorEnvelope {
  code: ErrorCode;
  message: string;
  /** Validation problems, one per invalid field. */
  issues?: ErrorIssue[];
  /**
   * The specific cause of a refusal, beyond its code (e.g. `FORBIDDEN` with `INSUFFICIENT_SCOPE`):
   * one of `ERROR_REASONS` from a server of this release; a client keeps any other as it came.
   */
  reason?: string;
  /** Facts about the refusal a program can act on (e.g. `{ scope }`), present with some reasons only. */
  details?: Record<string, unknown>;
  /** On a 5xx only: the request's `X-Request-Id`, by which its log lines can be found. */
  requestId?: string;
}

/** The only message a 5xx other than a dependency's failure ever carries. */
export const INTERNAL_ERROR_MESSAGE = "Internal server error";

// A dependency failed (the database, CoinGecko, the agent), or a feature is off on this server
// (501: payments, a partner's leak reports): the caller writes a fixed text naming it and what to
// do, which helps and leaks nothing. Any other 5xx text could carry internals.
const DEPENDENCY_CODES: ReadonlySet<ErrorCode> = new Set([
  "NOT_IMPLEMENTED",
  "BAD_GATEWAY",
  "SERVICE_UNAVAILABLE",
  "GATEWAY_TIMEOUT",
]);

/**
 * The message a response may carry for `code`: `message` for a 4xx, a feature that is off (501) and a
 * dependency's failure (502, 503, 504: callers pass fixed text), "Internal server error" for any other 5xx.
 * @example publicMessage("INTERNAL_SERVER_ERROR", "relation \"keys\" does not exist") // "Internal server error"
 */
export function publicMessage(code: ErrorCode, message: string): string {
  return statusOf(code) < 500 || DEPENDENCY_CODES.has(code) ? message : INTERNAL_ERROR_MESSAGE;
}

/** A refusal's `reason` and `details` (see `ErrorEnvelope`). */
export interface RefusalReason {
  reason: string;
  details?: Record<string, unknown> | undefined;
}

/**
 * Builds an error envelope; the message goes through `publicMessage`, `issues` is present only when
 * there are some to report, and `reason` (with its `details`) only on a 4xx that names one.
 * @example errorBody("NOT_FOUND", "No such key") // { code: "NOT_FOUND", message: "No such key" }
 * @example errorBody("FORBIDDEN", "…", undefined, { reason: "INSUFFICIENT_SCOPE", details: { scope: "wallets:read" } })
 */
export function errorBody(
  code: ErrorCode,
  message: string,
  issues?: readonly ErrorIssue[],
  refusal?: RefusalReason,
): ErrorEnvelope {
  const body: ErrorEnvelope = { code, message: publicMessage(code, message) };
  if (issues !== undefined && issues.length > 0) body.issues = [...issues];
  if (refusal !== undefined && statusOf(code) < 500) {
    body.reason = refusal.reason;
    if (refusal.details !== undefined) body.details = refusal.details;
  }
  return body;
}

/** `value` as an error envelope when it is one with a known code, else `undefined` (bodies are never trusted). */
export function readEnvelope(value: unknown): ErrorEnvelope | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const code: unknown = Reflect.get(value, "code");
  const message: unknown = Reflect.get(value, "message");
  const rawIssues: unknown = Reflect.get(value, "issues");
  const requestId: unknown = Reflect.get(value, "requestId");
  const reason: unknown = Reflect.get(value, "reason");
  const details: unknown = Reflect.get(value, "details");
  if (!isErrorCode(code) || typeof message !== "string") return undefined;
  const envelope: ErrorEnvelope = { code, message };
  // An id that is not one is left out rather than refusing the whole envelope; so are a reason
  // that is not one and details that are not an object.
  if (isRequestId(requestId)) envelope.requestId = requestId;
  if (isReasonText(reason)) {
    envelope.reason = reason;
    if (isPlainObject(details)) envelope.details = details;
  }
  if (rawIssues === undefined || rawIssues === null) return envelope;
  const issues = readIssues(rawIssues);
  if (issues === undefined) return undefined;
  envelope.issues = issues;
  return envelope;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `body` with `requestId` added when `status` is a 5xx (the id by which the operator finds the
 * request's log lines); any other answer goes back unchanged.
 * @example withRequestId(500, errorBody("INTERNAL_SERVER_ERROR", "x"), "r-1") // { code, message, requestId: "r-1" }
 */
export function withRequestId(
  status: number,
  body: ErrorEnvelope,
  requestId: string | undefined,
): ErrorEnvelope {
  return status >= 500 && requestId !== undefined ? { ...body, requestId } : body;
}
