import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { defineScript, runScript } from "@keyport/node-edge";
import type { Redis } from "ioredis";
import type { SharedCacheStore, SharedLoad } from "../cache/shared-store.js";
import { type CacheEntry, type Loader, NOT_FOUND_TTL_MS, notFoundEntry } from "../cache/upstream-cache.js";
import type { UpstreamFailure } from "../upstream/failure.js";

/** Deletes the lock only if it is still ours (it may have expired and been taken by another). */
const RELEASE = defineScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

/** Options of {@link createRedisCacheStore}. */
export interface RedisCacheStoreOptions {
  /** Namespace, e.g. `keyport:proxy:`; tests use a unique one. */
  prefix: string;
  /** The caches' clock (ms since the epoch); every instance must read the same time. */
  now: () => number;
  /**
   * How long a lock holder may take (the upstream timeout plus a margin): if it dies, its lock
   * expires after this and a waiter loads instead.
   */
  lockMs: number;
  /** How long a copy stays in Redis, to be served stale when a refresh fails or the budget is spent. */
  keepMs: number;
}

// A waiter re-reads Redis after 5 ms, then backs off doubling to at most this.
const MAX_POLL_MS = 100;
// A holder's failure is kept this long for the waiters that saw its lock (then forgotten: not cached).
const FAILURE_MS = 5_000;

/**
 * Redis as the cache every instance shares, with one load per key across instances: the instance
 * that sets the key's lock (`SET NX PX lockMs`) calls the upstream and writes the copy (or, on
 * failure, a note for its waiters) before releasing it; the others poll with a bounded backoff for
 * that copy. A holder that dies leaves a lock that expires after `lockMs`, and the next poll takes
 * it over and loads. A wait is bounded (`lockMs` plus 2 s, then 503); Redis errors give
 * `unavailable` (503, or a copy this instance still holds).
 */
export function createRedisCacheStore(redis: Redis, options: RedisCacheStoreOptions): SharedCacheStore {
  const { prefix, now, lockMs, keepMs } = options;

  // The answer is this instance's whatever Redis does next: a failed write only costs the others a load.
  const hold = async (keys: Keys, token: string, load: Loader, stale: CacheEntry | undefined) => {
    let result: SharedLoad;
    try {
      const loaded = await load(new AbortController().signal);
      if (loaded.ok) {
        const entry = { body: loaded.value, fetchedAt: now() };
        await redis.set(keys.value, `${entry.fetchedAt}\n${entry.body}`, "PX", keepMs).catch(() => {});
        result = { ok: true, entry, from: "upstream" };
      } else if (loaded.failure.kind === "not_found") {
        // Remembered for every instance, and gone when it stops being fresh (a 404 is never stale).
        const entry = notFoundEntry(now());
        await redis
          .set(keys.value, `${NOT_FOUND_MARK}${entry.fetchedAt}`, "PX", NOT_FOUND_TTL_MS)
          .catch(() => {});
        result = { ok: true, entry, from: "upstream" };
      } else {
        const note = JSON.stringify({ token, failure: loaded.failure });
        await redis.set(keys.failure, note, "PX", FAILURE_MS).catch(() => {});
        result = { ok: false, failure: loaded.failure, stale };
      }
    } finally {
      await runScript(redis, RELEASE, [keys.lock], [token]).catch(() => {});
    }
    return result;
  };

  return {
    async load(key, ttlMs, load) {
      const keys = keysFor(prefix, key);
      let stale: CacheEntry | undefined;
      let watched: string | undefined;
      let delay = 5;
      const waitUntil = performance.now() + lockMs + 2_000;
      try {
        for (;;) {
          const [value, lock, failure] = await redis.mget(keys.value, keys.lock, keys.failure);
          const entry = parseEntry(value);
          if (entry !== undefined) {
            if (now() - entry.fetchedAt < (entry.notFound === true ? NOT_FOUND_TTL_MS : ttlMs)) {
              return { ok: true, entry, from: watched === undefined ? "shared" : "upstream" };
            }
            if (entry.notFound !== true) stale = entry;
          }
          const noted = watched === undefined ? undefined : parseFailure(failure, watched);
          if (noted !== undefined) return { ok: false, failure: noted, stale };
          if (lock === null || lock === undefined) {
            const token = randomUUID();
            if ((await redis.set(keys.lock, token, "PX", lockMs, "NX")) === "OK") {
              return await hold(keys, token, load, stale);
            }
            continue; // another instance took it first: read its lock and wait for it
          }
          watched = lock;
          if (performance.now() > waitUntil) {
            return {
              ok: false,
              failure: { kind: "unavailable", detail: "shared load wait exceeded" },
              stale,
            };
          }
          await sleep(delay);
          delay = Math.min(delay * 2, MAX_POLL_MS);
        }
      } catch {
        return { ok: false, failure: { kind: "unavailable", detail: "redis unreachable" }, stale };
      }
    },
  };
}

interface Keys {
  value: string;
  lock: string;
  failure: string;
}

// The cache key is `path?query` of the upstream request: it holds no secret.
function keysFor(prefix: string, key: string): Keys {
  return { value: `${prefix}cache:${key}`, lock: `${prefix}lock:${key}`, failure: `${prefix}failed:${key}` };
}

// A remembered 404 is `404:<fetchedAt>`; a copy starts with its digits and a newline, never with this.
const NOT_FOUND_MARK = "404:";

/**
 * Reads `<fetchedAt>\n<body>` (the body is not re-encoded, so a copy costs no JSON escaping), or a
 * remembered 404.
 */
function parseEntry(value: string | null | undefined): CacheEntry | undefined {
  if (value === null || value === undefined) return undefined;
  if (value.startsWith(NOT_FOUND_MARK)) {
    const fetchedAt = Number(value.slice(NOT_FOUND_MARK.length));
    return Number.isFinite(fetchedAt) ? notFoundEntry(fetchedAt) : undefined;
  }
  const newline = value.indexOf("\n");
  const fetchedAt = Number(value.slice(0, newline));
  if (newline < 0 || !Number.isFinite(fetchedAt)) return undefined;
  return { body: value.slice(newline + 1), fetchedAt };
}

function parseFailure(value: string | null | undefined, token: string): UpstreamFailure | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    const note: unknown = JSON.parse(value);
    if (typeof note !== "object" || note === null || !("token" in note) || !("failure" in note)) {
      return undefined;
    }
    if (note.token !== token) return undefined;
    return isFailure(note.failure) ? note.failure : undefined;
  } catch {
    return undefined;
  }
}

// Only our own instances write these notes (any failure kind, so new kinds pass unchanged); a note
// without a kind and a detail is ignored, and the waiter loads for itself.
function isFailure(value: unknown): value is UpstreamFailure {
  return (
    typeof value === "object" &&
    value !== null &&
    "kind" in value &&
    typeof value.kind === "string" &&
    "detail" in value &&
    typeof value.detail === "string"
  );
}
