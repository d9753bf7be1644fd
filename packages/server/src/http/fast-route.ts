import type { IncomingMessage, ServerResponse } from "node:http";
import type { Services } from "../context.js";

/**
 * A handler for one exact `METHOD /path`, checked before anything else (hot paths such as verify).
 * It writes `X-Request-Id: requestId` on its answer itself: the request handler does not set the
 * header on a fast route's response, because a header set before `writeHead` sends every header of
 * the answer through `setHeader`'s validation again (about 3 µs a verification: docs/benchmarks.md).
 * Resolves (or returns) once it has answered, or has given up on a client that left.
 */
export type FastRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  services: Services,
  requestId: string,
) => void | Promise<void>;

/** A verification is an authorisation decision: never cacheable by anything in between. */
export const NO_STORE = { "cache-control": "no-store" };
