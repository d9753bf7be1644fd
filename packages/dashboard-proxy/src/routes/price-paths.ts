import type { Middleware } from "h3";
import { errorResponse } from "../http/errors.js";

// A market path as sent (the request line, before any URL parsing) holding an escape, a backslash
// or a dot segment before its query. WHATWG URL parsing, which h3 and the router see, folds
// `%2e%2e` and `..` segments away and reads `\` as `/`, so `chart/bitcoin\..\ping` would arrive
// as `chart/ping` and `chart/%2e%2e` as `/api/prices/` (a 404).
const REWRITABLE = /^\/api\/prices\/(?:[^?#]*[%\\]|(?:[^?#]*\/)?\.\.?(?:[/?#]|$))/;

/**
 * Refuses, with 400 on the `id`, a `/api/prices/` path that URL parsing would rewrite or decode
 * (docs/dashboard-proxy.md, "Routes"): the coin id is checked exactly as it was sent. Every market
 * path is plain ASCII, so an honest client never sends one. Without the raw request line (not
 * Node), the router's checks alone apply.
 */
export function refuseRewrittenPricePaths(): Middleware {
  return (event, next) => {
    const raw = event.runtime?.node?.req.url;
    if (raw === undefined || !REWRITABLE.test(raw)) return next();
    return errorResponse({
      code: "BAD_REQUEST",
      message: "Invalid request",
      issues: [
        {
          path: ["id"],
          message: "must be a single CoinGecko coin id as is: no escapes (%), backslashes or dot segments",
        },
      ],
    });
  };
}
