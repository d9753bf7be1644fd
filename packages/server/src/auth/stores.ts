import type { Db } from "../db/database.js";
import { consumeNonce, issueNonce } from "./nonce.js";
import { createSession, findSessionWallet, revokeSession } from "./session.js";
import { checkSiweMessage, type SiweSettings } from "./siwe.js";

/** Sessions as procedures use them. Only a token's SHA-256 is stored. */
export interface SessionStore {
  /** A new session of SESSION_TTL_SECONDS for `wallet`. */
  create(wallet: string): Promise<{ token: string; expiresAt: Date }>;
  /** The wallet of a live (unexpired, not logged out) session, or null. */
  findWallet(token: string): Promise<string | null>;
  /** Ends a session; its token gets 401 afterwards. */
  revoke(token: string): Promise<void>;
}

/** Single-use sign-in nonces. */
export interface NonceStore {
  issue(): Promise<{ nonce: string; expiresAt: Date }>;
  /** Consumes an issued, unexpired, unused nonce atomically; false otherwise. */
  consume(nonce: string): Promise<boolean>;
}

/** Checks a signed EIP-4361 message, all but its nonce; null on any failure. */
export interface SiweChecker {
  check(message: string, signature: string): Promise<{ address: `0x${string}`; nonce: string } | null>;
}

/** The session store over the database. */
export function createSessionStore(db: Db, ttlSeconds: number): SessionStore {
  return {
    create: (wallet) => createSession(db, wallet, ttlSeconds),
    findWallet: (token) => findSessionWallet(db, token),
    revoke: (token) => revokeSession(db, token),
  };
}

/** The nonce store over the database. */
export function createNonceStore(db: Db): NonceStore {
  return { issue: () => issueNonce(db), consume: (nonce) => consumeNonce(db, nonce) };
}

/** The SIWE checker for these settings (domains, chain ids, RPC client). */
export function createSiweChecker(settings: SiweSettings): SiweChecker {
  return { check: (message, signature) => checkSiweMessage(settings, message, signature) };
}
