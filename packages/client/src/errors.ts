import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { z } from "zod";

/**
 * The HTTP status of every code (tRPC's own mapping), plus `NETWORK_ERROR` (status 0) for a call that got no
 * HTTP answer at all. The `satisfies` makes the compiler check the table against tRPC's closed set of codes.
 */
const ERROR_STATUS = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
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
  NETWORK_ERROR: 0,
} as const satisfies Record<TRPC_ERROR_CODE_KEY | "NETWORK_ERROR", number>;

/** An API.md error code (the tRPC code name), or `NETWORK_ERROR` when no HTTP response arrived. */
export type KeyportErrorCode = keyof typeof ERROR_STATUS;

/** One validation problem, as the server and the proxy report it. */
export interface KeyportErrorIssue {
  path: (string | number)[];
  message: string;
}

/** What a `KeyportError` is built from. */
export interface KeyportErrorInit {
  code: KeyportErrorCode;
  status: number;
  message: string;
  issues?: KeyportErrorIssue[] | undefined;
  cause?: unknown;
}

/**
 * The one error both clients throw: the API's `code`, the HTTP `status` (0 when no response arrived) and,
 * for validation errors, `issues`.
 * @example
 * try { await keyport.keys.create.mutate({ name: "" }) }
 * catch (error) { if (error instanceof KeyportError && error.code === "BAD_REQUEST") showIssues(error.issues) }
 */
export class KeyportError extends Error {
  override name = "KeyportError";
  readonly code: KeyportErrorCode;
  readonly status: number;
  readonly issues: KeyportErrorIssue[] | undefined;

  constructor(init: KeyportErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.issues = init.issues;
  }
}

/** True when `value` is one of the known codes. */
export function isKeyportErrorCode(value: string): value is KeyportErrorCode {
  return Object.hasOwn(ERROR_STATUS, value);
}

/** The HTTP status that goes with a code. */
export function statusOf(code: KeyportErrorCode): number {
  return ERROR_STATUS[code];
}

/** The code for a bare HTTP status (an answer without a usable envelope). */
export function codeForStatus(status: number): KeyportErrorCode {
  for (const [code, known] of Object.entries(ERROR_STATUS)) {
    if (known === status && isKeyportErrorCode(code)) return code;
  }
  return status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST";
}

/** `issues` as both servers send them. */
export const issuesSchema = z.array(
  z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }),
);

/** A zod error's issues in the API's form: path and message each. */
export function issuesOf(error: z.ZodError): KeyportErrorIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
    message: issue.message,
  }));
}

/** A KeyportError for a local validation failure, shaped like the 400 the server would send. */
export function validationError(error: z.ZodError, message: string): KeyportError {
  return new KeyportError({ code: "BAD_REQUEST", status: 400, message, issues: issuesOf(error) });
}

/** A KeyportError for a request that got no HTTP response (refused, reset, DNS...). */
export function networkError(cause: unknown): KeyportError {
  return new KeyportError({
    code: "NETWORK_ERROR",
    status: 0,
    message: "The request failed before an HTTP response arrived",
    cause,
  });
}
