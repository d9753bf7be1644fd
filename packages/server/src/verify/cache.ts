import { LRUCache } from "lru-cache";
import type { KeyRecord } from "./key-record.js";

/** Options of {@link createKeyCache}. */
export interface KeyCacheOptions {
  /** Most keys cached. Default 100,000 (a few hundred bytes each). */
  max?: number;
  /**
   * Safety net only: revoke and roll invalidate explicitly, so this bounds how long a missed
   * invalidation could last, not how fresh an entry normally is. Default 60 s.
   */
  ttlMs?: number;
  /** Most unknown hashes remembered. Default 10,000. */
  negativeMax?: number;
  /** How long an unknown hash is remembered. Default 15 s (docs/decisions.md, "Unknown keys"). */
  negativeTtlMs?: number;
  /** The TTL clock in ms, above 0; default lru-cache's (`performance.now`). Tests move one by hand. */
  now?: () => number;
}

/** The in-process cache of key records by secret hash, with an id index for invalidation. */
export interface KeyCache {
  /** The record, `null` for a hash known not to exist, `undefined` when not cached. */
  get(hash: string): KeyRecord | null | undefined;
  /** A token to take before loading; {@link set} ignores loads that an invalidation overtook. */
  generation(): number;
  /** Caches a loaded record (or its absence), unless an invalidation happened since `generation`. */
  set(hash: string, record: KeyRecord | null, generation: number): void;
  /** Forgets one key, e.g. after its revoke or roll, and every unknown hash (a create or roll may have made one known). */
  invalidate(keyId: string): void;
  /** Forgets every key of a wallet, e.g. after its wallet-wide limit changed. */
  invalidateWallet(wallet: string): void;
  /** Forgets everything, e.g. after missing notifications while disconnected. */
  clear(): void;
  readonly size: number;
}

/**
 * Creates the key cache: a bounded LRU of records plus a small, short-lived negative cache of hashes
 * that matched no key, so a flood of forged keys (valid checksums) costs one database read per
 * distinct key rather than one per request. A secret is 190 random bits, so its hash is all but
 * never looked up before the key exists; still, every key change (a create and a roll announce the
 * new key's id: see announce-key-changes.ts) forgets all unknown hashes, on every instance, so a
 * remembered miss can never hide a key that exists.
 */
export function createKeyCache(options: KeyCacheOptions = {}): KeyCache {
  const idToHash = new Map<string, string>();
  // Only the cached keys of each wallet, so a wallet-limit change forgets exactly those.
  const walletHashes = new Map<string, Set<string>>();
  const forgetWalletHash = (wallet: string, hash: string): void => {
    const hashes = walletHashes.get(wallet);
    if (hashes === undefined) return;
    hashes.delete(hash);
    if (hashes.size === 0) walletHashes.delete(wallet);
  };
  // An injected clock is read on every check (lru-cache otherwise reuses a reading for 1 ms).
  const clock = options.now === undefined ? {} : { perf: { now: options.now }, ttlResolution: 0 };
  const records = new LRUCache<string, KeyRecord>({
    ...clock,
    max: options.max ?? 100_000,
    ttl: options.ttlMs ?? 60_000,
    // Keeps the id index exactly as large as the cache, whatever removes an entry.
    dispose: (record, hash) => {
      if (idToHash.get(record.id) === hash) idToHash.delete(record.id);
      forgetWalletHash(record.wallet, hash);
    },
  });
  const unknown = new LRUCache<string, true>({
    ...clock,
    max: options.negativeMax ?? 10_000,
    ttl: options.negativeTtlMs ?? 15_000,
  });
  let generation = 0;

  return {
    get size() {
      return records.size;
    },
    get(hash) {
      const record = records.get(hash);
      if (record !== undefined) return record;
      return unknown.has(hash) ? null : undefined;
    },
    generation: () => generation,
    set(hash, record, token) {
      if (token !== generation) return;
      if (record === null) {
        unknown.set(hash, true);
        return;
      }
      records.set(hash, record);
      idToHash.set(record.id, hash);
      let hashes = walletHashes.get(record.wallet);
      if (hashes === undefined) {
        hashes = new Set();
        walletHashes.set(record.wallet, hashes);
      }
      hashes.add(hash);
    },
    invalidate(keyId) {
      generation++;
      const hash = idToHash.get(keyId);
      if (hash !== undefined) records.delete(hash);
      unknown.clear();
    },
    invalidateWallet(wallet) {
      generation++;
      const hashes = walletHashes.get(wallet);
      if (hashes === undefined) return;
      for (const hash of [...hashes]) records.delete(hash);
    },
    clear() {
      generation++;
      records.clear();
      unknown.clear();
      idToHash.clear();
      walletHashes.clear();
    },
  };
}
