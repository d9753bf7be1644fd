import { acceptRequestId, REQUEST_ID_HEADER } from "@keyport/errors";
import type { H3Event } from "h3";

/**
 * Gives the request its id (the caller's `X-Request-Id` when it is one, else a fresh UUID) on
 * `event.context.requestId`. Off node, h3's own response headers carry it to the answer; on node,
 * `putRequestId` does, more cheaply.
 * @example onRequest: (event) => assignRequestId(event)
 */
export function assignRequestId(event: H3Event): void {
  const node = event.runtime?.node;
  if (node === undefined) {
    const id = acceptRequestId(event.req.headers.get(REQUEST_ID_HEADER));
    event.context.requestId = id;
    // h3 merges these into the answer (a copy of its headers, which node spares us below).
    event.res.headers.set(REQUEST_ID_HEADER, id);
    return;
  }
  event.context.requestId = acceptRequestId(node.req.headers[REQUEST_ID_HEADER]);
}

/**
 * Puts the request's id on its answer (node only: see `assignRequestId` for the rest). A prepared
 * cache hit's headers are shared by every request it answers and reading them copies them, so its id
 * goes on node's response instead, which node merges into the head srvx writes. Node 20 collapses
 * repeated names in that merge (two Set-Cookie become one), so any other answer carries the id in
 * its own headers; a prepared hit has no repeated name.
 * @example onResponse: (response, event) => putRequestId(response, event)
 */
export function putRequestId(response: Response, event: H3Event): void {
  const id = event.context.requestId;
  const node = event.runtime?.node;
  if (id === undefined || node === undefined) return;
  if (event.context.varyDone === true && node.res !== undefined) node.res.setHeader(REQUEST_ID_HEADER, id);
  else response.headers.set(REQUEST_ID_HEADER, id);
}
