import type { H3Event } from "h3";

/** The httpOnly cookie holding the server's session token, when `PUBLIC_ORIGIN` is http. */
export const SESSION_COOKIE = "keyport_session";
/**
 * Its name when `PUBLIC_ORIGIN` is https: browsers accept a `__Host-` cookie only with `Secure`,
 * `Path=/` and no `Domain`, so a sibling subdomain or a narrower path cannot plant one of that name.
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** A readable marker (no secret) so the page knows it is probably signed in without asking. */
export const SIGNED_IN_COOKIE = "keyport_signed_in";

// A server token is base64url or hex; anything else is not ours and is never forwarded.
const TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{16,512}$/;

/** The session cookie's name for a dashboard served from `publicOrigin`. */
export function sessionCookieName(publicOrigin: string): string {
  return new URL(publicOrigin).protocol === "https:" ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * Every value the request's `Cookie` header(s) give `name`, in the order sent. Read here rather
 * than through a cookie parser, which keeps only one of them: a page on another port of the host (or
 * a sibling subdomain) can plant a second cookie of the name with a longer `Path`, which the browser
 * sends first.
 */
export function sessionCookieValues(event: H3Event, name: string): string[] {
  const header = event.req.headers.get("cookie");
  if (header === null) return [];
  const values: string[] = [];
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    values.push(pair.slice(equals + 1).trim());
  }
  return values;
}

/**
 * The session token from the request's one cookie `name`, if it holds one of a plausible shape.
 * Two or more such cookies give none (the guards refuse such a request before any route).
 */
export function readSessionToken(event: H3Event, name: string): string | undefined {
  const values = sessionCookieValues(event, name);
  const [token] = values;
  return values.length === 1 && token !== undefined && TOKEN_SHAPE.test(token) ? token : undefined;
}

/** Whether the request carries a session cookie at all (either name, whatever its value). */
export function hasSessionCookie(event: H3Event): boolean {
  return (
    sessionCookieValues(event, SESSION_COOKIE).length > 0 ||
    sessionCookieValues(event, HOST_SESSION_COOKIE).length > 0
  );
}

/** Builds the cookies' attributes; `secure` and the `__Host-` name when `PUBLIC_ORIGIN` is https. */
export interface SessionCookies {
  /** The session cookie's name (`sessionCookieName`). */
  name: string;
  /** Both `Set-Cookie` values for a new session that ends at `expiresAt`. */
  set(token: string, expiresAt: Date, now?: number): string[];
  /** Both `Set-Cookie` values that delete the cookies. */
  clear(): string[];
}

/**
 * @example createSessionCookies("https://keys.example").set(token, expiresAt)
 */
export function createSessionCookies(publicOrigin: string): SessionCookies {
  const name = sessionCookieName(publicOrigin);
  const secure = new URL(publicOrigin).protocol === "https:" ? "; Secure" : "";
  // Never a Domain: the cookie stays with the dashboard's host (and `__Host-` requires it).
  const attributes = (maxAge: number) => `Path=/; Max-Age=${maxAge}; SameSite=Strict${secure}`;
  return {
    name,
    set(token, expiresAt, now = Date.now()) {
      const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now) / 1_000));
      return [
        `${name}=${token}; ${attributes(maxAge)}; HttpOnly`,
        `${SIGNED_IN_COOKIE}=1; ${attributes(maxAge)}`,
      ];
    },
    clear: () => [`${name}=; ${attributes(0)}; HttpOnly`, `${SIGNED_IN_COOKIE}=; ${attributes(0)}`],
  };
}
