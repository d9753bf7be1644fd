/**
 * What to make of a request's `Origin`: absent (server-to-server, same-origin GET), the dashboard's
 * own `PUBLIC_ORIGIN`, an origin in `ALLOWED_ORIGINS` (gets CORS headers), or anything else (refused,
 * so a cross-site page cannot spend our upstream quota). `Host` plays no part: a client picks it.
 */
export type OriginVerdict =
  | { kind: "none" }
  | { kind: "same-origin" }
  | { kind: "allowed"; origin: string }
  | { kind: "forbidden" };

// The verdicts that carry nothing of the request are shared: every request is classified, twice.
const NONE: OriginVerdict = Object.freeze({ kind: "none" });
const SAME_ORIGIN: OriginVerdict = Object.freeze({ kind: "same-origin" });
const FORBIDDEN: OriginVerdict = Object.freeze({ kind: "forbidden" });

/**
 * Classifies a request by its `Origin` header.
 * @example checkOrigin("https://app.example", "https://keys.example", new Set(["https://app.example"]))
 */
export function checkOrigin(
  origin: string | null,
  publicOrigin: string,
  allowed: ReadonlySet<string>,
): OriginVerdict {
  if (origin === null) return NONE;
  // Exact match: browsers send the serialized origin (lower-case scheme and host, no default port).
  if (origin === publicOrigin) return SAME_ORIGIN;
  // `Origin: null` (sandboxed frames, file://) matches neither and is refused.
  if (allowed.has(origin)) return { kind: "allowed", origin };
  return FORBIDDEN;
}

/** Headers that let an allowed origin read a response (and our cache/limit headers). */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "x-cache, retry-after",
    vary: "Origin",
  };
}

/** The answer to an allowed origin's preflight. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "content-type",
    "access-control-max-age": "600",
  };
}

/**
 * Whether another site in `ALLOWED_ORIGINS` may call this path: the market routes always, chat only
 * under `CHAT_ACCESS=public`; never the session, `/trpc` or page routes, which serve the dashboard alone.
 */
export function isCorsPath(path: string, chatPublic: boolean): boolean {
  return path.startsWith("/api/prices/") || (chatPublic && path === "/api/chat");
}
