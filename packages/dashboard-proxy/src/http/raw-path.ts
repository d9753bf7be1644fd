import type { H3Event } from "h3";

/**
 * The request's path exactly as sent (percent-encoding kept). h3's `event.url` (srvx's fast URL)
 * decodes some escapes such as `%2E`, so a check on it cannot see what the sender encoded.
 * @example rawPathname(event) // "/trpc/auth%2Everify", where event.url.pathname says "/trpc/auth.verify"
 */
export function rawPathname(event: H3Event): string {
  return new URL(event.req.url).pathname;
}
