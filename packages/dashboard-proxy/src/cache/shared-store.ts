import type { UpstreamFailure } from "../upstream/failure.js";
import type { CacheEntry, Loader } from "./upstream-cache.js";

/**
 * What the shared tier made of one key: a copy (`shared`: already there and fresh; `upstream`:
 * loaded now, by this instance or one it waited for), or the failure plus any older copy it saw.
 */
export type SharedLoad =
  | { ok: true; entry: CacheEntry; from: "shared" | "upstream" }
  | { ok: false; failure: UpstreamFailure; stale: CacheEntry | undefined };

/** A cache tier every proxy instance shares (Redis), behind each instance's own LRU. */
export interface SharedCacheStore {
  /**
   * Returns the shared copy of `key` if it is younger than `ttlMs`; otherwise loads it so that one
   * instance at a time calls `load` and the others wait for its answer.
   */
  load(key: string, ttlMs: number, load: Loader): Promise<SharedLoad>;
}
