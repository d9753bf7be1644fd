import { getRequestIP, type H3Event, type Middleware } from "h3";
import { errorResponse } from "./errors.js";
import { checkOrigin, type OriginVerdict, preflightHeaders } from "./origin.js";
import type { RateLimiter } from "./rate-limit.js";

/** What the guards need. */
export interface GuardOptions {
  allowedOrigins: ReadonlySet<string>;
  rateLimiter: RateLimiter;
}

/** The request's origin verdict (also used to add CORS headers to the response). */
export function originVerdict(event: H3Event, allowed: ReadonlySet<string>): OriginVerdict {
  return checkOrigin(event.req.headers.get("origin"), event.req.headers.get("host"), allowed);
}

/**
 * Runs before every route: refuses foreign origins (403), answers preflights (204), and limits
 * `/api/*` per client IP (429 with `Retry-After`). The IP is the socket peer unless the server was
 * started with `trustProxy` (see `TRUST_PROXY`), so a client cannot pick its own by header.
 */
export function createGuards(options: GuardOptions): Middleware {
  return (event, next) => {
    const verdict = originVerdict(event, options.allowedOrigins);
    if (verdict.kind === "forbidden") {
      return errorResponse({ code: "FORBIDDEN", message: "This origin may not use the dashboard proxy" });
    }
    if (event.req.method === "OPTIONS") {
      const headers = verdict.kind === "allowed" ? preflightHeaders(verdict.origin) : {};
      return new Response(null, { status: 204, headers });
    }
    if (event.url.pathname.startsWith("/api/")) {
      const result = options.rateLimiter.hit(getRequestIP(event) ?? "unknown");
      if (!result.allowed) {
        return errorResponse({
          code: "TOO_MANY_REQUESTS",
          message: `Too many requests; retry after ${result.retryAfterSeconds} s`,
          headers: { "retry-after": String(result.retryAfterSeconds) },
        });
      }
    }
    return next();
  };
}
