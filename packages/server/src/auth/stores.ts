import type { Db } from "../db/database.js";
import type { WalletSession } from "../schemas/auth.js";
import { createLastSeenTracker } from "./last-seen.js";
import { consumeNonce, isNonceUsable, issueNonce } from "./nonce.js";
import type { NonceLimiter } from "./nonce-limit.js";
import {
  createSession,
  findSession,
  type LiveSession,
  revokeSession,
  type SignInOrigin,
  sessionTokenHash,
} from "./session.js";
import type { SessionMemo } from "./session-memo.js";
import { type ClaimNonce, checkSiweMessage, type SiweCheck, type SiweSettings } from "./siwe.js";
import { endOtherWalletSessions, endWalletSession, listWalletSessions } from "./wallet-sessions.js";

/** Sessions as procedures use them. Only a token's SHA-256 is stored. */
export interface SessionStore {
  /**
   * A new session for `wallet` of SESSION_TTL_SECONDS, ending earlier at `notAfter` when given
   * (the SIWE message's expiration time).
   */
  create(
    wallet: string,
    notAfter: Date | undefined,
    origin: SignInOrigin,
  ): Promise<{ token: string; expiresAt: Date }>;
  /**
   * The wallet and end of a live (unexpired, not logged out) session, or null. Keeps the session's
   * last-seen time within a minute (at most one write a minute a session).
   */
  find(token: string): Promise<LiveSession | null>;
  /** Ends `wallet`'s session of this token (recording `session.ended`); its token gets 401 afterwards. */
  revoke(wallet: string, token: string): Promise<void>;
  /** `wallet`'s live sessions, newest first, the one of `token` marked `current`. */
  list(wallet: string, token: string): Promise<WalletSession[]>;
  /** Ends `wallet`'s live session of this public id, as `revoke` does; false when it has none. */
  end(wallet: string, id: string): Promise<boolean>;
  /** Ends every live session of `wallet` but the one of `token`; returns how many ended. */
  endOthers(wallet: string, token: string): Promise<number>;
}

/** Single-use sign-in nonces. */
export interface NonceStore {
  /**
   * A new nonce, unless the client's address (`clientIp`, undefined when unknown) has taken
   * NONCE_RATE_LIMIT already: then nothing is stored and `resetAt` says when it may ask again.
   */
  issue(
    clientIp: string | undefined,
  ): Promise<{ ok: true; nonce: string; expiresAt: Date } | { ok: false; resetAt: Date }>;
  /** Consumes an issued, unexpired, unused nonce atomically; false otherwise. */
  consume(nonce: string): Promise<boolean>;
  /** Whether a nonce is issued, unexpired and unused, leaving it so. */
  isUsable(nonce: string): Promise<boolean>;
}

/** Checks a signed EIP-4361 message: the signer, or the check that failed. */
export interface SiweChecker {
  /**
   * Consumes the message's nonce through `claimNonce` before any signature work (see
   * `checkSiweMessage`). `requestId` names the request on any line the check logs.
   */
  check(message: string, signature: string, claimNonce: ClaimNonce, requestId: string): Promise<SiweCheck>;
}

/** The session store over the database; `memo` remembers live sessions (embedded database only). */
export function createSessionStore(db: Db, ttlSeconds: number, memo?: SessionMemo): SessionStore {
  const lastSeen = createLastSeenTracker(db);
  return {
    create: (wallet, notAfter, origin) => createSession(db, wallet, ttlSeconds, notAfter, new Date(), origin),
    find: (token) => findSession(db, token, new Date(), memo, lastSeen),
    revoke: (wallet, token) => revokeSession(db, wallet, token, new Date(), memo),
    // A caller's token passed its lookup already; one that is no session token has no sessions.
    async list(wallet, token) {
      const hash = sessionTokenHash(token);
      return hash === null ? [] : listWalletSessions(db, wallet, hash);
    },
    end: (wallet, id) => endWalletSession(db, wallet, id, new Date(), memo),
    async endOthers(wallet, token) {
      const hash = sessionTokenHash(token);
      return hash === null ? 0 : endOtherWalletSessions(db, wallet, hash, new Date(), memo);
    },
  };
}

/** The nonce store over the database, with `limiter` counting each client's nonces. */
export function createNonceStore(db: Db, limiter: NonceLimiter): NonceStore {
  return {
    async issue(clientIp) {
      const now = new Date();
      const allowance = await limiter.take(clientIp, now.getTime());
      if (!allowance.allowed) return { ok: false, resetAt: allowance.resetAt };
      return { ok: true, ...(await issueNonce(db, now)) };
    },
    consume: (nonce) => consumeNonce(db, nonce),
    isUsable: (nonce) => isNonceUsable(db, nonce),
  };
}

/** The SIWE checker for these settings (domains, chain ids, RPC client). */
export function createSiweChecker(settings: SiweSettings): SiweChecker {
  return {
    check: (message, signature, claimNonce, requestId) =>
      checkSiweMessage(settings, message, signature, claimNonce, new Date(), requestId),
  };
}
