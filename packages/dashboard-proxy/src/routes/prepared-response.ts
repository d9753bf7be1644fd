import { HTTPResponse } from "h3";
import type { CacheEntry, CacheState } from "../cache/upstream-cache.js";

/**
 * An h3 response whose headers were built before the request: h3 reads an `HTTPResponse`'s
 * `headers`, and the base class makes a new `Headers` from its init on every read (undici's
 * `Headers` cost a cached hit about as much as all its guards). h3 and srvx only ever copy these
 * (h3 into srvx's response, which iterates them), so one instance answers every request it fits.
 */
class PreparedResponse extends HTTPResponse {
  readonly #headers: Headers;
  constructor(body: Uint8Array<ArrayBuffer>, headers: Headers) {
    super(body, { status: 200 });
    this.#headers = headers;
  }
  override get headers(): Headers {
    return this.#headers;
  }
}

/** A cached body made ready to send: its bytes once, and its latest response per cache state. */
interface Prepared {
  bytes: Uint8Array<ArrayBuffer>;
  responses: Partial<Record<CacheState, { maxAgeSeconds: number; response: PreparedResponse }>>;
}

/**
 * Builds the 200 answers of one cached route, and keeps them beside each cache entry: the body as
 * bytes (sent with its Content-Length, never re-encoded) and, for each state, the response of the
 * current `max-age` (it changes once a second at most). A hit then allocates nothing of its own.
 * @example const respond = createCachedResponses(60); respond(outcome.entry, "HIT", 59)
 */
export function createCachedResponses(
  swrSeconds: number,
): (entry: CacheEntry, state: CacheState, maxAgeSeconds: number) => HTTPResponse {
  const prepared = new WeakMap<CacheEntry, Prepared>();
  return (entry, state, maxAgeSeconds) => {
    let ready = prepared.get(entry);
    if (ready === undefined) {
      ready = { bytes: Buffer.from(entry.body, "utf8"), responses: {} };
      prepared.set(entry, ready);
    }
    const latest = ready.responses[state];
    if (latest !== undefined && latest.maxAgeSeconds === maxAgeSeconds) return latest.response;
    const headers = new Headers({
      "content-type": "application/json; charset=utf-8",
      "content-length": String(ready.bytes.byteLength),
      "cache-control": `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${swrSeconds}`,
      "x-cache": state,
      // Answers differ by Origin (CORS headers, 403): see the app's onResponse, which skips this one.
      vary: "Origin",
    });
    const response = new PreparedResponse(ready.bytes, headers);
    ready.responses[state] = { maxAgeSeconds, response };
    return response;
  };
}
