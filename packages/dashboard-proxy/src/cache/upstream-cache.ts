import { LRUCache } from "lru-cache";
import type { UpstreamFailure, UpstreamResult } from "../upstream/failure.js";

/** A cached upstream answer: the JSON text we send, and when we got it (the cache's clock, ms). */
export interface CacheEntry {
  body: string;
  fetchedAt: number;
}

/** How a request was served. */
export type CacheState = "HIT" | "MISS" | "STALE";

/** The cache's answer: a body with its freshness, or the failure when there is nothing to serve. */
export type CacheOutcome =
  | { ok: true; body: string; state: CacheState; maxAgeSeconds: number }
  | { ok: false; failure: UpstreamFailure };

/** Calls the upstream for one key; the cache calls it at most once at a time per key. */
export type Loader = (signal: AbortSignal) => Promise<UpstreamResult<string>>;

/** Cache timing for one route. */
export interface UpstreamCacheOptions {
  /** How long an answer is fresh. */
  ttlMs: number;
  /** How long past `ttlMs` a stale answer is served at once while one refresh runs behind it. */
  staleWhileRevalidateMs: number;
  /** Entries kept (least recently used go first). */
  maxEntries: number;
  /** The clock, in ms, above 0 (lru-cache reads 0 as "no TTL"); default `performance.now`. Tests move one by hand. */
  now?: () => number;
}

/** A read-through cache with one in-flight load per key, stale-while-revalidate and stale-if-error. */
export interface UpstreamCache {
  /** Answers `key` from the cache, or through `load` (shared by everyone asking for `key` meanwhile). */
  get(key: string, load: Loader): Promise<CacheOutcome>;
}

// lru-cache drops an entry whose load rejects (or keeps the stale one) only when the load throws, so
// a failure crosses it as this error and turns back into a value in `get`.
class LoadFailed extends Error {
  constructor(readonly failure: UpstreamFailure) {
    super(`upstream ${failure.kind}`);
  }
}

/**
 * Creates the cache. Failures are never cached: a failed refresh keeps the stale copy, which is
 * then served (state STALE) until a refresh succeeds; with no copy the failure is returned.
 * @example createUpstreamCache({ ttlMs: 60_000, staleWhileRevalidateMs: 60_000, maxEntries: 500 }).get(key, load)
 */
export function createUpstreamCache(options: UpstreamCacheOptions): UpstreamCache {
  const { ttlMs, staleWhileRevalidateMs } = options;
  const now = options.now ?? (() => performance.now());
  const cache = new LRUCache<string, CacheEntry, { load: Loader }>({
    max: options.maxEntries,
    ttl: ttlMs,
    // lru-cache's own TTL checks read the same clock as ours.
    perf: { now },
    // lru-cache otherwise caches the time for up to `ttlResolution` ms (1 ms default).
    ttlResolution: 0,
    noDeleteOnFetchRejection: true,
    fetchMethod: async (_key, _stale, { context, signal }) => {
      const result = await context.load(signal);
      if (!result.ok) throw new LoadFailed(result.failure);
      return { body: result.value, fetchedAt: now() };
    },
  });

  const fresh = (entry: CacheEntry, state: CacheState): CacheOutcome => {
    const remaining = ttlMs - (now() - entry.fetchedAt);
    const maxAgeSeconds = state === "STALE" ? 0 : Math.max(0, Math.floor(remaining / 1_000));
    return { ok: true, body: entry.body, state, maxAgeSeconds };
  };

  return {
    async get(key, load) {
      const cached = cache.peek(key, { allowStale: true });
      // Within the window a stale copy is answered at once and refreshed behind it; beyond it the
      // caller waits for the refresh and gets the stale copy only if that refresh fails.
      const serveStale = cached !== undefined && now() - cached.fetchedAt <= ttlMs + staleWhileRevalidateMs;
      const status: LRUCache.Status<string, CacheEntry, { load: Loader }> = {};
      try {
        const entry = await cache.fetch(key, { context: { load }, allowStale: serveStale, status });
        if (entry === undefined) {
          return { ok: false, failure: { kind: "bad_gateway", detail: "load aborted" } };
        }
        const state = status.fetch === "hit" ? "HIT" : status.returnedStale ? "STALE" : "MISS";
        return fresh(entry, state);
      } catch (error) {
        if (!(error instanceof LoadFailed)) throw error;
        const stale = cache.peek(key, { allowStale: true });
        if (stale !== undefined) return fresh(stale, "STALE");
        return { ok: false, failure: error.failure };
      }
    },
  };
}
