import type { H3Event } from "h3";
import type { ApiError } from "./errors.js";

/** nginx's "client closed request": what an abort counts as in the access log and `/metrics`. */
export const CLIENT_CLOSED_STATUS = 499;

/** The envelope for a request whose client has gone (nobody reads it; it keeps the one-envelope rule). */
export const CLIENT_CLOSED: ApiError = {
  code: "CLIENT_CLOSED_REQUEST",
  message: "The request was cancelled by the client",
};

/**
 * Whether the client went away before its answer: it reset or closed the connection mid-body, or
 * gave up while the proxy waited on an upstream. Such a failure is the client's doing, not an outage:
 * it is logged at info as an abort and counted as 499, never as "unhandled error" or a 5xx.
 *
 * On node:http the request and response objects are read directly, so a finished request costs no
 * `AbortSignal`; elsewhere (`app.fetch` in tests) the request's signal answers.
 */
export function isClientGone(event: H3Event): boolean {
  const node = event.runtime?.node;
  if (node === undefined) return event.req.signal.aborted;
  const { req, res } = node;
  // The body stopped short (reset, or closed before Content-Length was met), or it errored.
  if (req.errored !== null || (req.destroyed && !req.complete)) return true;
  // The connection closed while the answer was still being prepared (a GET has no body to cut).
  return res?.destroyed === true && !res.writableEnded;
}
