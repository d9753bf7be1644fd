import { createHash } from "node:crypto";
import type { H3Event } from "h3";
import { LRUCache } from "lru-cache";
import type { KeyportClient, SessionInfo } from "../upstream/keyport.js";
import { readSessionToken } from "./cookies.js";
import { checkSessionProvenance } from "./provenance.js";

/** Who the request's session cookie belongs to, or null (no cookie, not the dashboard's page, ended). */
export type ResolveSession = (event: H3Event) => Promise<{ wallet: string } | null>;

/** The resolver and the hooks the session routes use to keep its cache true. */
export interface SessionResolver {
  resolveSession: ResolveSession;
  /** Remembers a session the server just confirmed or created. */
  remember(token: string, session: SessionInfo): void;
  /** Forgets a token (signed out, or the server answered 401 for it). */
  forget(token: string): void;
}

/** Cache bounds: a few seconds, so a chat conversation does not ask the server on every message. */
export interface SessionResolverOptions {
  keyport: KeyportClient;
  publicOrigin: string;
  ttlMs?: number;
  maxEntries?: number;
}

/**
 * Resolves the session cookie through the server's `GET /auth/session`, cached per token hash (never
 * the token itself as a key) for `ttlMs` (5 s) and never past the session's own end. A session ended
 * elsewhere (another proxy, the REST logout) may thus live on here for up to `ttlMs`.
 * @example const { resolveSession } = createSessionResolver({ keyport, publicOrigin: env.PUBLIC_ORIGIN })
 */
export function createSessionResolver(options: SessionResolverOptions): SessionResolver {
  const ttlMs = options.ttlMs ?? 5_000;
  const cache = new LRUCache<string, SessionInfo>({ max: options.maxEntries ?? 10_000, ttl: ttlMs });
  const keyOf = (token: string) => createHash("sha256").update(token).digest("base64url");
  const remember = (token: string, session: SessionInfo) => {
    const left = session.expiresAt.getTime() - Date.now();
    if (left > 0) cache.set(keyOf(token), session, { ttl: Math.min(ttlMs, left) });
  };

  return {
    remember,
    forget: (token) => void cache.delete(keyOf(token)),
    async resolveSession(event) {
      if (checkSessionProvenance(event, options.publicOrigin) !== undefined) return null;
      const token = readSessionToken(event);
      if (token === undefined) return null;
      const cached = cache.get(keyOf(token));
      if (cached !== undefined) return { wallet: cached.wallet };
      const answer = await options.keyport.session(token, event.context.requestId);
      if (!answer.ok) return null;
      remember(token, answer.value);
      return { wallet: answer.value.wallet };
    },
  };
}
