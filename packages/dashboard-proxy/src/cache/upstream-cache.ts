import { LRUCache } from "lru-cache";
import type { UpstreamFailure, UpstreamResult } from "../upstream/failure.js";
import type { SharedCacheStore, SharedLoad } from "./shared-store.js";

/**
 * A cached upstream answer: the JSON text we send, and when we got it (the cache's clock, ms); or,
 * with `notFound`, the upstream's 404 for this key (no body), remembered {@link NOT_FOUND_TTL_MS}.
 */
export interface CacheEntry {
  body: string;
  fetchedAt: number;
  notFound?: true;
}

/**
 * How long an upstream 404 is remembered (docs/dashboard-proxy.md, "Caching"): a made-up coin id is
 * asked upstream once in 10 minutes, not on every request. Never served stale: past this it is asked again.
 */
export const NOT_FOUND_TTL_MS = 600_000;

const NOT_FOUND: CacheOutcome = { ok: false, failure: { kind: "not_found", detail: "HTTP 404 (cached)" } };

/** How a request was served. */
export type CacheState = "HIT" | "MISS" | "STALE";

/**
 * The cache's answer: a body with its freshness, or the failure when there is nothing to serve.
 * `entry` is the cached object itself (the same object until a refresh replaces it), so a caller
 * can keep what it derives from a body (its bytes, its headers) beside it.
 */
export type CacheOutcome =
  | { ok: true; body: string; entry: CacheEntry; state: CacheState; maxAgeSeconds: number }
  | { ok: false; failure: UpstreamFailure };

/**
 * Calls the upstream for one key; the cache calls it at most once at a time per key, with the
 * `asker` of the request that caused the call (the budget charges that request's client).
 */
export type Loader<A = void> = (signal: AbortSignal, asker: A) => Promise<UpstreamResult<string>>;

/** Cache timing for one route. */
export interface UpstreamCacheOptions {
  /** How long an answer is fresh (a call may pass its own, see {@link GetOptions}). */
  ttlMs: number;
  /** How long past its TTL a stale answer is served at once while one refresh runs behind it. */
  staleWhileRevalidateMs: number;
  /** Entries kept in this process (least recently used go first). */
  maxEntries: number;
  /** The clock in ms; default `Date.now` (with a shared store, every instance must read the same time). */
  now?: () => number;
  /** Redis behind this process's LRU: copies and loads shared by every instance. */
  shared?: SharedCacheStore;
}

/** Per-call settings. */
export interface GetOptions {
  /** Freshness of this key's answers, instead of the cache's `ttlMs` (e.g. by a chart's granularity). */
  ttlMs?: number;
}

/** A read-through cache with one in-flight load per key, stale-while-revalidate and stale-if-error. */
export interface UpstreamCache<A = void> {
  /**
   * Answers `key` from the cache, or through `load` (shared by everyone asking for `key` meanwhile;
   * a load this call starts is given `asker`). A copy held in this process is answered
   * synchronously (no promise, no microtask on a hit).
   */
  get(
    key: string,
    load: Loader<A>,
    options: GetOptions | undefined,
    asker: A,
  ): CacheOutcome | Promise<CacheOutcome>;
}

// Loads are never cancelled once started: their answer fills the cache for whoever asks next.
const NEVER = new AbortController().signal;

/**
 * Creates the cache. Failures are never cached but for the upstream's 404, remembered
 * {@link NOT_FOUND_TTL_MS}: a failed refresh keeps the stale copy, which is then served (state
 * STALE) until a refresh succeeds; with no copy the failure is returned. With a
 * shared store, a fresh copy another instance loaded counts as a HIT, and a load is made by one
 * instance at a time (see the store).
 * @example createUpstreamCache({ ttlMs: 60_000, staleWhileRevalidateMs: 60_000, maxEntries: 500 }).get(key, load)
 */
export function createUpstreamCache<A = void>(options: UpstreamCacheOptions): UpstreamCache<A> {
  const { staleWhileRevalidateMs, shared } = options;
  const now = options.now ?? Date.now;
  // No TTL here: an old entry stays until it is evicted, to be served when a refresh fails.
  const entries = new LRUCache<string, CacheEntry>({ max: options.maxEntries });
  const inflight = new Map<string, Promise<SharedLoad>>();

  const answer = (entry: CacheEntry, state: CacheState, ttlMs: number): CacheOutcome => {
    if (entry.notFound === true) return NOT_FOUND;
    const maxAgeSeconds =
      state === "STALE" ? 0 : Math.max(0, Math.floor((ttlMs - (now() - entry.fetchedAt)) / 1_000));
    return { ok: true, body: entry.body, entry, state, maxAgeSeconds };
  };

  const loadHere = async (load: Loader): Promise<SharedLoad> => {
    const result = await load(NEVER);
    if (!result.ok) {
      if (result.failure.kind === "not_found")
        return { ok: true, entry: notFoundEntry(now()), from: "upstream" };
      return { ok: false, failure: result.failure, stale: undefined };
    }
    return { ok: true, entry: { body: result.value, fetchedAt: now() }, from: "upstream" };
  };

  const refresh = (key: string, load: Loader<A>, ttlMs: number, asker: A): Promise<SharedLoad> => {
    const running = inflight.get(key);
    if (running !== undefined) return running;
    // Bound to this request only when a load starts: a hit allocates nothing for it.
    const bound: Loader = (signal) => load(signal, asker);
    const started = (shared === undefined ? loadHere(bound) : shared.load(key, ttlMs, bound))
      .then((result) => {
        if (result.ok) entries.set(key, result.entry);
        return result;
      })
      .finally(() => inflight.delete(key));
    inflight.set(key, started);
    return started;
  };

  const wait = async (
    key: string,
    load: Loader<A>,
    ttlMs: number,
    cached: CacheEntry | undefined,
    asker: A,
  ) => {
    const result = await refresh(key, load, ttlMs, asker);
    if (result.ok) return answer(result.entry, result.from === "shared" ? "HIT" : "MISS", ttlMs);
    const stale = cached ?? result.stale;
    if (stale !== undefined) return answer(stale, "STALE", ttlMs);
    return { ok: false, failure: result.failure } satisfies CacheOutcome;
  };

  return {
    get(key, load, getOptions, asker) {
      const ttlMs = getOptions?.ttlMs ?? options.ttlMs;
      const cached = entries.get(key);
      if (cached !== undefined) {
        const age = now() - cached.fetchedAt;
        if (cached.notFound === true) {
          return age < NOT_FOUND_TTL_MS ? NOT_FOUND : wait(key, load, ttlMs, undefined, asker);
        }
        if (age < ttlMs) return answer(cached, "HIT", ttlMs);
        // Within the window a stale copy is answered at once and refreshed behind it; beyond it the
        // caller waits for the refresh and gets the stale copy only if that refresh fails.
        if (age <= ttlMs + staleWhileRevalidateMs) {
          refresh(key, load, ttlMs, asker).catch(() => {});
          return answer(cached, "STALE", ttlMs);
        }
      }
      return wait(key, load, ttlMs, cached, asker);
    },
  };
}

/** The entry that remembers an upstream 404 got at `fetchedAt`. */
export function notFoundEntry(fetchedAt: number): CacheEntry {
  return { body: "", fetchedAt, notFound: true };
}
