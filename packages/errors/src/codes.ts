import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/**
 * Every error code (tRPC's code names, which docs/api.md uses) and its HTTP status: tRPC's own table.
 * `satisfies` makes the compiler check it against tRPC's closed set both ways: a code tRPC adds or
 * drops fails the build here. `import type` keeps tRPC out of the runtime.
 */
export const ERROR_STATUS = {
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
} as const satisfies Record<TRPC_ERROR_CODE_KEY, number>;

/** A code a Keyport server answers with (a tRPC code name). */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** What a client reports: a server's code, or `NETWORK_ERROR` (status 0) when no HTTP answer arrived. */
export type KeyportErrorCode = ErrorCode | "NETWORK_ERROR";

/** The status of a call that got no HTTP answer at all (refused, reset, DNS...). */
export const NETWORK_ERROR_STATUS = 0;

/** True when `value` is one of the codes a server answers with. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}

/** True when `value` is one of the codes a client reports (`NETWORK_ERROR` included). */
export function isKeyportErrorCode(value: unknown): value is KeyportErrorCode {
  return value === "NETWORK_ERROR" || isErrorCode(value);
}

/**
 * The HTTP status that goes with a code (0 for `NETWORK_ERROR`).
 * @example statusOf("NOT_FOUND") // 404
 */
export function statusOf(code: KeyportErrorCode): number {
  return code === "NETWORK_ERROR" ? NETWORK_ERROR_STATUS : ERROR_STATUS[code];
}

// Where two codes share a status (BAD_REQUEST and PARSE_ERROR), the first in the table wins.
const CODE_BY_STATUS = new Map<number, ErrorCode>();
for (const [code, status] of Object.entries(ERROR_STATUS)) {
  if (isErrorCode(code) && !CODE_BY_STATUS.has(status)) CODE_BY_STATUS.set(status, code);
}

/**
 * The code for a bare HTTP status (one a framework raised itself, or an answer without an envelope):
 * the table's code, else `INTERNAL_SERVER_ERROR` for any 5xx and `BAD_REQUEST` for anything else.
 * @example codeForStatus(404) // "NOT_FOUND"; codeForStatus(418) // "BAD_REQUEST"
 */
export function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS.get(status) ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}
