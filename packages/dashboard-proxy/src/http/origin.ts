/**
 * What to make of a request's `Origin`: absent (server-to-server, same-origin GET), the proxy's own
 * host, an origin in `ALLOWED_ORIGINS` (gets CORS headers), or anything else (refused, so a
 * cross-site page cannot spend our upstream quota).
 */
export type OriginVerdict =
  | { kind: "none" }
  | { kind: "same-origin" }
  | { kind: "allowed"; origin: string }
  | { kind: "forbidden" };

/**
 * Classifies a request by its `Origin` and `Host` headers.
 * @example checkOrigin("https://app.example", "proxy.example", new Set(["https://app.example"]))
 */
export function checkOrigin(
  origin: string | null,
  host: string | null,
  allowed: ReadonlySet<string>,
): OriginVerdict {
  if (origin === null) return { kind: "none" };
  if (allowed.has(origin)) return { kind: "allowed", origin };
  // `Origin: null` (sandboxed frames, file://) cannot parse and is refused.
  if (host !== null && URL.canParse(origin) && new URL(origin).host === host.toLowerCase()) {
    return { kind: "same-origin" };
  }
  return { kind: "forbidden" };
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
