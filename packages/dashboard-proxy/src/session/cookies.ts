import { getCookie, type H3Event } from "h3";

/** The httpOnly cookie holding the server's session token. */
export const SESSION_COOKIE = "keyport_session";
/** A readable marker (no secret) so the page knows it is probably signed in without asking. */
export const SIGNED_IN_COOKIE = "keyport_signed_in";

// A server token is base64url or hex; anything else is not ours and is never forwarded.
const TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{16,512}$/;

/** The session token from the request's cookie, if it holds one of a plausible shape. */
export function readSessionToken(event: H3Event): string | undefined {
  const token = getCookie(event, SESSION_COOKIE);
  return token !== undefined && TOKEN_SHAPE.test(token) ? token : undefined;
}

/** Whether the request carries the session cookie at all (whatever its value). */
export function hasSessionCookie(event: H3Event): boolean {
  return getCookie(event, SESSION_COOKIE) !== undefined;
}

/** Builds the cookies' attributes; `secure` when `PUBLIC_ORIGIN` is https. */
export interface SessionCookies {
  /** Both `Set-Cookie` values for a new session that ends at `expiresAt`. */
  set(token: string, expiresAt: Date, now?: number): string[];
  /** Both `Set-Cookie` values that delete the cookies. */
  clear(): string[];
}

/**
 * @example createSessionCookies("https://keys.example").set(token, expiresAt)
 */
export function createSessionCookies(publicOrigin: string): SessionCookies {
  const secure = new URL(publicOrigin).protocol === "https:" ? "; Secure" : "";
  const attributes = (maxAge: number) => `Path=/; Max-Age=${maxAge}; SameSite=Strict${secure}`;
  return {
    set(token, expiresAt, now = Date.now()) {
      const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now) / 1_000));
      return [
        `${SESSION_COOKIE}=${token}; ${attributes(maxAge)}; HttpOnly`,
        `${SIGNED_IN_COOKIE}=1; ${attributes(maxAge)}`,
      ];
    },
    clear: () => [`${SESSION_COOKIE}=; ${attributes(0)}; HttpOnly`, `${SIGNED_IN_COOKIE}=; ${attributes(0)}`],
  };
}
