/** The header that carries a request's id both ways, on both servers (docs/api.md, "Errors"). */
export const REQUEST_ID_HEADER = "x-request-id";

// Safe to echo in a header and to write in a log line as is: no space, quote, newline or non-ASCII.
const ACCEPTED = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * True when `value` may be a caller's request id: 1 to 64 characters of `[A-Za-z0-9._-]`.
 * @example isRequestId("checkout-7f3a") // true
 */
export function isRequestId(value: unknown): value is string {
  return typeof value === "string" && ACCEPTED.test(value);
}

/**
 * The id a request is known by: the caller's `X-Request-Id` when it is one (see `isRequestId`),
 * else a fresh random UUID. A repeated header reaches node:http joined with ", ", so it is replaced.
 * @example acceptRequestId(req.headers["x-request-id"])
 */
export function acceptRequestId(header: unknown): string {
  return isRequestId(header) ? header : crypto.randomUUID();
}
