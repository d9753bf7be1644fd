import type { z } from "zod";

/** The closed set of error codes (tRPC names) and the HTTP status of each; the compiler checks both ways. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One validation problem: where (`["ids", 3]`) and what. */
export interface ErrorIssue {
  path: (string | number)[];
  message: string;
}

/** The error envelope of API.md: `{ code, message, issues? }`. */
export interface ErrorEnvelope {
  code: ErrorCode;
  message: string;
  issues?: ErrorIssue[];
}

/** An error as a value: the envelope plus any headers it needs (`Retry-After`). */
export interface ApiError extends ErrorEnvelope {
  headers?: Record<string, string>;
}

/** Builds the one JSON error response every failure ends as. Never carries a stack or upstream text. */
export function errorResponse(error: ApiError): Response {
  const body: ErrorEnvelope = { code: error.code, message: error.message };
  if (error.issues) body.issues = error.issues;
  return new Response(JSON.stringify(body), {
    status: ERROR_STATUS[error.code],
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...error.headers,
    },
  });
}

/** A 400 listing each zod issue by path and message (messages name fields, never echo values). */
export function validationError(error: z.ZodError, message = "Invalid request"): ApiError {
  return {
    code: "BAD_REQUEST",
    message,
    issues: error.issues.map((issue) => ({
      path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
      message: issue.message,
    })),
  };
}

function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, value);
}

const CODE_BY_STATUS = new Map<number, ErrorCode>();
for (const [code, status] of Object.entries(ERROR_STATUS)) {
  if (isErrorCode(code)) CODE_BY_STATUS.set(status, code);
}

/** The code for an HTTP status h3 raised itself (404 route, 413 body, 415 type, malformed URL...). */
export function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS.get(status) ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}
