import type { H3Event } from "h3";
import type { KeyportClient } from "../upstream/keyport.js";
import { readSessionToken, sessionCookieName } from "./cookies.js";
import { checkSessionProvenance } from "./provenance.js";

/** Who the request's session cookie belongs to, or null (no cookie, not the dashboard's page, ended). */
export type ResolveSession = (event: H3Event) => Promise<{ wallet: string } | null>;

/** The resolver chat uses to find the wallet behind a request. */
export interface SessionResolver {
  resolveSession: ResolveSession;
}

/** Where sessions are checked, and the dashboard's origin (provenance and the cookie's name). */
export interface SessionResolverOptions {
  keyport: KeyportClient;
  publicOrigin: string;
}

/**
 * Resolves the session cookie through the server's `GET /auth/session`, on every call: a session
 * ended anywhere (this proxy, another instance, the REST logout) cannot start another chat. One
 * lookup per chat is small beside the agent's answer, and chats are limited per wallet.
 * @example const { resolveSession } = createSessionResolver({ keyport, publicOrigin: env.PUBLIC_ORIGIN })
 */
export function createSessionResolver(options: SessionResolverOptions): SessionResolver {
  const cookieName = sessionCookieName(options.publicOrigin);
  return {
    async resolveSession(event) {
      if (checkSessionProvenance(event, options.publicOrigin) !== undefined) return null;
      const token = readSessionToken(event, cookieName);
      if (token === undefined) return null;
      const answer = await options.keyport.session(token, event.context.requestId);
      return answer.ok ? { wallet: answer.value.wallet } : null;
    },
  };
}
