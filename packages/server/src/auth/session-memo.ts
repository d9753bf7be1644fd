import { LRUCache } from "lru-cache";
import type { Database } from "../db/database.js";
import type { LiveSession } from "./session.js";

// Enough for every session a busy embedded install has open at once; beyond it the least recently
// used ones are looked up again.
const MAX_SESSIONS = 10_000;

/**
 * Live sessions remembered by token hash, so an authenticated request skips the session lookup.
 * Only for the embedded database: PGlite's data folder belongs to one process, and every app of that
 * process reaches it through the one `Database` handle, so every sign-out passes through the memo
 * of that handle (see {@link sessionMemoFor}). On PostgreSQL other instances end sessions too, and
 * every request asks the database.
 *
 * A sign-out forgets the token after its statement, and a lookup that was under way meanwhile does
 * not remember what it read: `remember` takes the generation the lookup started in. An expired
 * session is never answered from memory.
 */
export interface SessionMemo {
  /** The live session of this token hash at `now`, when remembered. */
  recall(hash: string, now: Date): LiveSession | undefined;
  /** The generation a lookup starts in. */
  generation(): number;
  /** Remembers what a lookup read, unless a sign-out happened since it started. */
  remember(hash: string, session: LiveSession, startedIn: number): void;
  /** Called after a sign-out's statement: the token is never answered from memory again. */
  forget(hash: string): void;
}

/** A memo of its own (tests); apps take the one of their database through {@link sessionMemoFor}. */
export function createSessionMemo(maxSessions = MAX_SESSIONS): SessionMemo {
  const sessions = new LRUCache<string, LiveSession>({ max: maxSessions });
  let generation = 0;
  return {
    recall(hash, now) {
      const session = sessions.get(hash);
      if (session === undefined) return undefined;
      if (session.expiresAt > now) return session;
      sessions.delete(hash);
      return undefined;
    },
    generation: () => generation,
    remember(hash, session, startedIn) {
      if (startedIn === generation) sessions.set(hash, session);
    },
    forget(hash) {
      generation++;
      sessions.delete(hash);
    },
  };
}

const memos = new WeakMap<Database, SessionMemo>();

/** The memo of an embedded database (one per handle, shared by every app on it); none on PostgreSQL. */
export function sessionMemoFor(database: Database): SessionMemo | undefined {
  if (database.kind !== "pglite") return undefined;
  let memo = memos.get(database);
  if (memo === undefined) {
    memo = createSessionMemo();
    memos.set(database, memo);
  }
  return memo;
}
