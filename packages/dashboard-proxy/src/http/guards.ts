import { clientLimitKey, type LimitVerdict, type WindowLimit } from "@keyport/node-edge";
import type { H3Event, Middleware } from "h3";
import { hasSessionCookie, sessionCookieName, sessionCookieValues } from "../session/cookies.js";
import { errorResponse } from "./errors.js";
import { checkOrigin, isCorsPath, type OriginVerdict, preflightHeaders } from "./origin.js";
import type { ClientIpReader } from "./request-ip.js";
import "./request-context.js";

/** What the guards need. */
export interface GuardOptions {
  /** `PUBLIC_ORIGIN`: the dashboard's own pages. */
  publicOrigin: string;
  allowedOrigins: ReadonlySet<string>;
  rateLimiter: WindowLimit;
  clientIp: ClientIpReader;
  /** `CHAT_ACCESS=public`: other allowed sites may call chat too. */
  chatPublic: boolean;
}

/**
 * The request's origin verdict (also used to add CORS headers to the response): the guards' own
 * when they ran, else read from the request.
 */
export function originVerdict(
  event: H3Event,
  publicOrigin: string,
  allowed: ReadonlySet<string>,
): OriginVerdict {
  return event.context.originVerdict ?? checkOrigin(event.req.headers.get("origin"), publicOrigin, allowed);
}

/** Paths counted per client IP: the API the proxy pays for (CoinGecko, the agent) or passes on. */
function isLimitedPath(path: string): boolean {
  return path.startsWith("/api/") || path.startsWith("/trpc/");
}

// Not the page: the API, and the operator's endpoints, keep the Origin check.
const NOT_PAGE_PATHS = new Set(["/api", "/trpc", "/metrics", "/healthz"]);

/**
 * A read of the page itself (its HTML, scripts, styles): served whatever the `Origin`, since it acts
 * for no one and reads no wallet's data. Chromium sends `Origin` with module scripts, so a page opened
 * on another address of this host (`http://127.0.0.1:3001` for `http://localhost:3001`) would
 * otherwise load as a blank page instead of saying which address to open.
 */
function isPageRead(method: string, path: string): boolean {
  return (method === "GET" || method === "HEAD") && !isLimitedPath(path) && !NOT_PAGE_PATHS.has(path);
}

/**
 * Runs before every route: lets the page's own files through whatever the `Origin` (see
 * `isPageRead`), refuses foreign origins elsewhere (403), refuses a state-changing request that
 * carries the session cookie from anywhere but `PUBLIC_ORIGIN` (403), answers preflights (204), and
 * limits `/api/*` and `/trpc/*` per client IP, IPv6 per /64 (429 with `Retry-After`). The IP comes from
 * `TRUSTED_PROXIES` (see `clientAddress`), so a client cannot pick its own by header. A request to
 * those paths carrying more than one session cookie is 400: another page of the host planted one
 * (cookie tossing), and whichever the proxy chose could be the planter's.
 */
export function createGuards(options: GuardOptions): Middleware {
  const cookieName = sessionCookieName(options.publicOrigin);
  return (event, next) => {
    const verdict = checkOrigin(
      event.req.headers.get("origin"),
      options.publicOrigin,
      options.allowedOrigins,
    );
    event.context.originVerdict = verdict;
    const method = event.req.method;
    const path = event.url.pathname;
    if (isPageRead(method, path)) return next();
    if (verdict.kind === "forbidden") {
      return errorResponse({ code: "FORBIDDEN", message: "This origin may not use the dashboard proxy" });
    }
    if (verdict.kind === "allowed" && !isCorsPath(path, options.chatPublic)) {
      return errorResponse({ code: "FORBIDDEN", message: "This origin may use the market routes only" });
    }
    if (method === "OPTIONS") {
      const headers = verdict.kind === "allowed" ? preflightHeaders(verdict.origin) : {};
      return new Response(null, { status: 204, headers });
    }
    // Browsers send Origin on every request but GET/HEAD; without it (or with another site's) a
    // request holding the cookie is someone else's page or a forged form.
    if (method !== "GET" && method !== "HEAD" && verdict.kind !== "same-origin" && hasSessionCookie(event)) {
      return errorResponse({
        code: "FORBIDDEN",
        message: "Session routes answer only the dashboard's own pages",
      });
    }
    if (isLimitedPath(path)) {
      // No Set-Cookie to clear it: that would delete the dashboard's own cookie (Path=/) and leave
      // the planted one, with its narrower path, as the only one.
      if (sessionCookieValues(event, cookieName).length > 1) return errorResponse(TWO_SESSIONS);
      // IPv6 clients by their /64: one subscriber holds a whole /64 and could rotate past the limit.
      const result = options.rateLimiter.hit(clientLimitKey(options.clientIp(event)));
      // The in-process limiter answers at once; the shared one (Redis) with a promise.
      if (result instanceof Promise)
        return result.then((verdict) => (verdict.allowed ? next() : tooMany(verdict)));
      if (!result.allowed) return tooMany(result);
    }
    return next();
  };
}

const TWO_SESSIONS = {
  code: "BAD_REQUEST",
  message: "The request carries more than one session cookie; clear this site's cookies and sign in again",
} as const;

function tooMany(verdict: Extract<LimitVerdict, { allowed: false }>): Response {
  return errorResponse({
    code: "TOO_MANY_REQUESTS",
    message: `Too many requests; retry after ${verdict.retryAfterSeconds} s`,
    headers: { "retry-after": String(verdict.retryAfterSeconds) },
  });
}
