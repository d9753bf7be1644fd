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
 * The test is that the response can no longer be delivered (its socket is gone before it ended).
 * Neither the request's `AbortSignal` nor its `errored` will do: srvx sets both when the proxy itself
 * refuses a body (413 over the body limit), while the client is still there to read the answer.
 * Outside node:http (`app.fetch` in tests) nothing tells, so nothing counts as an abort.
 */
export function isClientGone(event: H3Event): boolean {
  const res = event.runtime?.node?.res;
  return res?.destroyed === true && !res.writableEnded;
}
