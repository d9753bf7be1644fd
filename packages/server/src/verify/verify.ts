import { deadlineError } from "../deadline.js";
import { NO_VERIFIER_METRICS, type VerifierMetrics } from "../metrics/verification.js";
import type { RateLimiter, RateLimitResult } from "../ratelimit/types.js";
import type { Verification } from "../schemas/verification.js";
import type { UsageBuffer } from "../usage/buffer.js";
import type { UsageOutcome } from "../usage/outcome.js";
import type { KeyCache } from "./cache.js";
import type { KeyRecord } from "./record.js";

/** What the verifier is built from; every piece is injected so the hot path is testable alone. */
export interface KeyVerifierDeps {
  /** Format and checksum check without I/O (the foundation's `isWellFormedKey(key, prefix)`). */
  isWellFormed: (key: string) => boolean;
  /** Hex SHA-256 of the secret (the foundation's `hashKey`). */
  hashKey: (key: string) => string;
  /** Reads a key by secret hash from the database; `null` when no key has that hash. */
  loadKeyByHash: (hash: string) => Promise<KeyRecord | null>;
  cache: KeyCache;
  rateLimiter: RateLimiter;
  usage: Pick<UsageBuffer, "record">;
  /** Counts outcomes and key cache lookups; default: not counted. */
  metrics?: VerifierMetrics;
  /** Epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

export interface KeyVerifier {
  /**
   * Answers API.md's `Verification` for a secret. Synchronous when the key is cached and the
   * rate limiter is in-process (the common case), a Promise otherwise: `await` handles both.
   */
  verify(key: string, deadline?: { readonly aborted: boolean }): Verification | Promise<Verification>;
}

/** The rate limiter's id of a wallet's shared window; key ids start `key_`, so the two never meet. */
export function walletWindowId(wallet: string): string {
  return `wallet:${wallet}`;
}

/** The window that binds: the one with fewer requests left; on a tie, the wallet's (shared with other keys). */
function binding(key: RateLimitResult | null, wallet: RateLimitResult): RateLimitResult {
  return key !== null && key.remaining < wallet.remaining ? key : wallet;
}

// Shared and frozen: the commonest failure allocates nothing.
const NOT_FOUND: Verification = Object.freeze({
  valid: false,
  code: "NOT_FOUND",
  keyId: null,
  wallet: null,
  expiresAt: null,
  ratelimit: null,
});

/**
 * Creates the verifier. Order of outcomes: REVOKED (revokedAt <= now) > EXPIRED
 * (expiresAt <= now) > RATE_LIMITED > VALID; the rate limits are consumed only by a key that is
 * otherwise valid: the key's own window first, then its wallet's shared window (only if the key's
 * allowed it). When the wallet's refuses, the key's gets its request back. `ratelimit` shows the
 * binding window: the one that refused, else the one with fewer requests left. Every outcome of a known key is counted in the usage buffer; NOT_FOUND never is.
 * Concurrent cache misses for one hash share one database read.
 *
 * @example
 * const verifier = createKeyVerifier({ isWellFormed: (k) => isWellFormedKey(k, env.KEY_PREFIX), hashKey,
 *   loadKeyByHash, cache, rateLimiter, usage });
 * const verification = await verifier.verify(body.key);
 */
export function createKeyVerifier(deps: KeyVerifierDeps): KeyVerifier {
  const { isWellFormed, hashKey, loadKeyByHash, cache, rateLimiter, usage } = deps;
  const now = deps.now ?? Date.now;
  const metrics = deps.metrics ?? NO_VERIFIER_METRICS;
  const loading = new Map<string, { generation: number; promise: Promise<KeyRecord | null> }>();

  function load(hash: string): Promise<KeyRecord | null> {
    const generation = cache.generation();
    const pending = loading.get(hash);
    // A read that started before an invalidation may return the old row: never join it.
    if (pending !== undefined && pending.generation === generation) return pending.promise;
    const promise = loadKeyByHash(hash).then(
      (record) => {
        cache.set(hash, record, generation);
        if (loading.get(hash)?.promise === promise) loading.delete(hash);
        return record;
      },
      (error: unknown) => {
        if (loading.get(hash)?.promise === promise) loading.delete(hash);
        throw error;
      },
    );
    loading.set(hash, { generation, promise });
    return promise;
  }

  function answer(
    record: KeyRecord,
    code: UsageOutcome,
    atMs: number,
    limit: RateLimitResult | null,
    deadline: { readonly aborted: boolean } | undefined,
  ) {
    // Past its deadline the caller has been answered 503: this verification must not count.
    if (deadline?.aborted) throw deadlineError();
    metrics.verified(code);
    usage.record(record.id, record.wallet, code, atMs);
    return {
      valid: code === "VALID",
      code,
      keyId: record.id,
      wallet: record.wallet,
      expiresAt: record.expiresAt,
      ratelimit:
        limit === null ? null : { limit: limit.limit, remaining: limit.remaining, resetAt: limit.resetAt },
    } satisfies Verification;
  }

  function notFound(): Verification {
    metrics.verified("NOT_FOUND");
    return NOT_FOUND;
  }

  // A verification that ends in an error has no code: counted as ERROR, then rethrown.
  function failed(error: unknown): never {
    metrics.failed();
    throw error;
  }

  function decide(
    record: KeyRecord,
    deadline?: { readonly aborted: boolean },
  ): Verification | Promise<Verification> {
    const atMs = now();
    if (record.revokedAt !== null && record.revokedAt.getTime() <= atMs)
      return answer(record, "REVOKED", atMs, null, deadline);
    if (record.expiresAt !== null && record.expiresAt.getTime() <= atMs)
      return answer(record, "EXPIRED", atMs, null, deadline);
    const rule = record.rateLimit;
    if (rule === null) {
      if (record.walletRateLimit === null) return answer(record, "VALID", atMs, null, deadline);
      return afterKey(record, null, atMs, deadline);
    }
    const result = rateLimiter.consume(record.id, rule.limit, rule.windowSeconds, atMs);
    if ("then" in result) return result.then((r) => afterKey(record, r, atMs, deadline), failed);
    return afterKey(record, result, atMs, deadline);
  }

  // The key's own window has answered (null: the key has none); the wallet's is consumed only
  // when the key's allowed the request, so a key-limited refusal leaves the wallet window alone.
  function afterKey(
    record: KeyRecord,
    key: RateLimitResult | null,
    atMs: number,
    deadline: { readonly aborted: boolean } | undefined,
  ): Verification | Promise<Verification> {
    if (key !== null && !key.allowed) return answer(record, "RATE_LIMITED", atMs, key, deadline);
    const rule = record.walletRateLimit;
    if (rule === null) return answer(record, "VALID", atMs, key, deadline);
    const result = rateLimiter.consume(walletWindowId(record.wallet), rule.limit, rule.windowSeconds, atMs);
    if ("then" in result) return result.then((r) => afterWallet(record, key, r, atMs, deadline), failed);
    return afterWallet(record, key, result, atMs, deadline);
  }

  function afterWallet(
    record: KeyRecord,
    key: RateLimitResult | null,
    wallet: RateLimitResult,
    atMs: number,
    deadline: { readonly aborted: boolean } | undefined,
  ): Verification | Promise<Verification> {
    if (wallet.allowed) return answer(record, "VALID", atMs, binding(key, wallet), deadline);
    // The wallet refused: the key's window gets back what this request took from it.
    const rule = record.rateLimit;
    const given =
      key === null || rule === null ? undefined : rateLimiter.refund(record.id, rule.windowSeconds, atMs);
    if (given === undefined) return answer(record, "RATE_LIMITED", atMs, wallet, deadline);
    return given.then(() => answer(record, "RATE_LIMITED", atMs, wallet, deadline), failed);
  }

  return {
    verify(key, deadline) {
      if (!isWellFormed(key)) return notFound();
      const hash = hashKey(key);
      const cached = cache.get(hash);
      if (cached === null) {
        metrics.cacheLookup("negative_hit");
        return notFound();
      }
      if (cached !== undefined) {
        metrics.cacheLookup("hit");
        return decide(cached, deadline);
      }
      metrics.cacheLookup("miss");
      return load(hash).then((record) => (record === null ? notFound() : decide(record, deadline)), failed);
    },
  };
}
