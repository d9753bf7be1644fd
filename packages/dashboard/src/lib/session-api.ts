import { z } from "zod";
import { fetchJson, HttpError } from "./http";

/** Who is signed in, as the proxy's `/api/session` says. The token itself stays in an httpOnly cookie. */
export const sessionSchema = z.object({
  wallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  expiresAt: z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
  /** The wallet is one of the server's `OPERATOR_WALLETS` (docs/operator.md); older proxies omit it. */
  operator: z.boolean().default(false),
});

export type Session = z.output<typeof sessionSchema>;

/** The TanStack Query key of the session; `null` data means signed out. */
export const SESSION_QUERY_KEY = ["session"] as const;

/**
 * Whether the proxy's readable marker cookie (`keyport_signed_in=1`, no secret) is set. Without it the
 * page is signed out and asks nothing: a signed-out load makes no request that answers 401 (which the
 * browser would log as a console error).
 */
export function probablySignedIn(cookie: string): boolean {
  return cookie.split(";").some((part) => part.trim() === "keyport_signed_in=1");
}

/** `GET /api/session`: the session, or null when signed out (no marker cookie, or 401). */
export async function readSession(): Promise<Session | null> {
  if (!probablySignedIn(document.cookie)) return null;
  try {
    return await fetchJson("/api/session", sessionSchema);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return null;
    throw error;
  }
}

/** `POST /api/session`: trades a signed EIP-4361 message for the session cookie. */
export function createSession(message: string, signature: string): Promise<Session> {
  return fetchJson("/api/session", sessionSchema, {
    method: "POST",
    body: JSON.stringify({ message, signature }),
  });
}

/** `DELETE /api/session`: ends the session on the server and clears the cookie. */
export async function deleteSession(): Promise<void> {
  await fetchJson("/api/session", z.unknown(), { method: "DELETE" });
}
