// What the proxy remembers about a request while h3 handles it, on h3's per-request context:
// WeakMaps keyed by the event cost a cached hit more than the rest of its guards together.

import type { OriginVerdict } from "./origin.js";

declare module "h3" {
  interface H3EventContext {
    /** `performance.now()` when the request arrived (app.ts), for the access log and the latency histogram. */
    startedAt?: number;
    /** The request's `X-Request-Id` (http/request-id.ts): on its answer, its log lines, a 5xx body, and sent on to the server. */
    requestId?: string;
    /** The client address `createClientIpReader` derived; null when it found none. Read once a request. */
    clientIp?: string | null;
    /** The guards' verdict on the request's Origin, for the CORS headers of its answer. */
    originVerdict?: OriginVerdict;
    /** Set by a route whose response carries its Vary header already (a prepared cache hit). */
    varyDone?: boolean;
  }
}
