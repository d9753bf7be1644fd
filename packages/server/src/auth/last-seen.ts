import { and, eq, lte } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "../db/database.js";
import { sessions } from "../db/schema/index.js";

/** How stale `last_seen_at` may grow before a request of the session writes it again. */
export const LAST_SEEN_INTERVAL_MS = 60_000;

// Sessions this process has written lately; beyond it a session may be written once more than needed.
const MAX_TRACKED = 10_000;

/** Keeps each session's `last_seen_at` within a minute of its last request, writing it at most once a minute. */
export interface LastSeenTracker {
  /**
   * Called by each authenticated request with what its lookup (or the session memo) read: writes
   * `now` when both that and this process's own last write are a minute old or more.
   */
  touch(hash: string, lastSeenAt: Date, now: Date): Promise<void>;
}

/**
 * The tracker of one app. A remembered session's `lastSeenAt` is as old as the memo's copy, so the
 * process also remembers when it last wrote each session (set before the write, so concurrent
 * requests do not write too); and the UPDATE itself only moves a value that is a minute old, so
 * other instances (and other apps on the embedded database) never write it twice in a minute either.
 */
export function createLastSeenTracker(db: Db, intervalMs = LAST_SEEN_INTERVAL_MS): LastSeenTracker {
  const written = new LRUCache<string, number>({ max: MAX_TRACKED });
  return {
    async touch(hash, lastSeenAt, now) {
      const nowMs = now.getTime();
      const latest = Math.max(lastSeenAt.getTime(), written.get(hash) ?? 0);
      if (nowMs - latest < intervalMs) return;
      written.set(hash, nowMs);
      await db
        .update(sessions)
        .set({ lastSeenAt: now })
        .where(and(eq(sessions.tokenHash, hash), lte(sessions.lastSeenAt, new Date(nowMs - intervalMs))));
    },
  };
}
