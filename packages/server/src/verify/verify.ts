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
 * (expiresAt <= now) > RATE_LIMITED > VALID; the rate limit is consumed only by a key that is
 * otherwise valid. Every outcome of a known key is counted in the usage buffer; NOT_FOUND never is.
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
    if (record.rateLimit === null) return answer(record, "VALID", atMs, null, deadline);
    const result = rateLimiter.consume(
      record.id,
      record.rateLimit.limit,
      record.rateLimit.windowSeconds,
      atMs,
    );
    if ("then" in result) {
      return result.then(
        (r) => answer(record, r.allowed ? "VALID" : "RATE_LIMITED", atMs, r, deadline),
        failed,
      );
    }
    return answer(record, result.allowed ? "VALID" : "RATE_LIMITED", atMs, result, deadline);
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
