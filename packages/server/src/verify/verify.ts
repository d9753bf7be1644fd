import type { RateLimiter, RateLimitResult } from "@keyport/node-edge";
import { deadlineError } from "../deadline.js";
import { NO_VERIFIER_METRICS, type VerifierMetrics } from "../metrics/verification.js";
import type { Verification } from "../schemas/verification.js";
import type { UsageBuffer } from "../usage/buffer.js";
import type { UsageOutcome } from "../usage/outcome.js";
import type { KeyCache } from "./cache.js";
import type { CreditsResult, CreditsStore } from "./credits-store.js";
import type { KeyRecord } from "./key-record.js";

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
  /** Credit balances (the database, or Redis with REDIS_URL); only keys with credits touch it. */
  credits: CreditsStore;
  usage: Pick<UsageBuffer, "record">;
  /** Counts outcomes and key cache lookups; default: not counted. */
  metrics?: VerifierMetrics;
  /** Epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** What a verification asks beyond the key (verify's `ip`, `permissions` and `cost`). */
export interface VerifyOptions {
  /** The end client's address; a key with an allow-list refuses without it or outside the list. */
  ip?: string | undefined;
  /** All must be held (a held `x:*` grants every `x:...`, `*` grants all). */
  permissions?: readonly string[] | undefined;
  /** Credits to spend, 0-1,000; default 1. Ignored for a key without credits. */
  cost?: number | undefined;
}

export interface KeyVerifier {
  /**
   * Answers `Verification` (docs/api.md) for a secret. Synchronous when the key is cached, the rate
   * limiter is in-process and the key has no credits (the common case), a Promise otherwise:
   * `await` handles both.
   */
  verify(
    key: string,
    options?: VerifyOptions,
    deadline?: { readonly aborted: boolean },
  ): Verification | Promise<Verification>;
}

/** Whether `held` grants every one of `requested` (docs/api.md: a trailing `*` is a prefix). */
export function holdsAll(held: readonly string[], requested: readonly string[]): boolean {
  for (const want of requested) {
    let granted = false;
    for (const have of held) {
      if (have === want || (have.endsWith("*") && want.startsWith(have.slice(0, -1)))) {
        granted = true;
        break;
      }
    }
    if (!granted) return false;
  }
  return true;
}

/** The rate limiter's id of a wallet's shared window; key ids start `key_`, so the two never meet. */
export function walletWindowId(wallet: string): string {
  return `wallet:${wallet}`;
}

// Shared and frozen: the commonest failure allocates nothing.
const NOT_FOUND: Verification = Object.freeze({
  valid: false,
  code: "NOT_FOUND",
  keyId: null,
  wallet: null,
  expiresAt: null,
  ratelimit: null,
  permissions: [],
  credits: null,
  meta: null,
});

/**
 * The rate limits' verdict on one request. What an allowed request took is known from the key's
 * record (its own window if it has a limit, its wallet's if that has one), so giving it back needs
 * nothing more.
 */
interface LimitsVerdict {
  allowed: boolean;
  /** The binding window (the one that refused, else the one with fewer left); null: no limit. */
  window: RateLimitResult | null;
}

const UNLIMITED: LimitsVerdict = Object.freeze({ allowed: true, window: null });

type Deadline = { readonly aborted: boolean } | undefined;

/**
 * Creates the verifier. Order of outcomes (their precedence in docs/api.md): REVOKED > EXPIRED >
 * IP_NOT_ALLOWED > INSUFFICIENT_PERMISSIONS > USAGE_EXCEEDED > RATE_LIMITED > VALID.
 *
 * Order of work: the key's own window, then its wallet's shared window (only if the key's allowed
 * it; a wallet refusal gives the key's request back); then, for a key with credits, one conditional
 * spend of `cost`, and when the balance is short, both windows get their request back. When a rate
 * limit refuses, the balance is read (not spent): a short balance answers USAGE_EXCEEDED, as the
 * precedence says. So a refused request spends neither credits nor rate limit. `ratelimit` shows
 * the binding window. Every outcome of a known key is counted in the usage buffer; NOT_FOUND never
 * is. Concurrent cache misses for one hash share one database read.
 *
 * @example
 * const verifier = createKeyVerifier({ isWellFormed: (k) => isWellFormedKey(k, env.KEY_PREFIX), hashKey,
 *   loadKeyByHash, cache, rateLimiter, credits, usage });
 * const verification = await verifier.verify(body.key, { permissions: ["prices:read"], cost: 1 });
 */
export function createKeyVerifier(deps: KeyVerifierDeps): KeyVerifier {
  const { isWellFormed, hashKey, loadKeyByHash, cache, rateLimiter, credits, usage } = deps;
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
    balance: CreditsResult | null,
    deadline: Deadline,
    ask: VerifyOptions | undefined,
  ): Verification {
    // Past its deadline the caller has been answered 503: this verification must not count.
    if (deadline?.aborted) throw deadlineError();
    metrics.verified(code);
    usage.record(record.id, record.wallet, code, atMs, ask);
    if (code === "VALID" && limit === null && balance === null) return plainValid(record);
    return {
      valid: code === "VALID",
      code,
      keyId: record.id,
      wallet: record.wallet,
      expiresAt: record.expiresAt,
      ratelimit:
        limit === null ? null : { limit: limit.limit, remaining: limit.remaining, resetAt: limit.resetAt },
      permissions: record.permissions,
      credits:
        balance === null
          ? null
          : { remaining: balance.remaining, purchased: balance.purchased, refillAt: balance.refillAt },
      meta: record.meta,
    };
  }

  // A plain key's VALID answer (no window, no balance) depends on its record alone: one frozen
  // object per cached record, which the HTTP layer serialises once (http/verification-json.ts).
  // A changed key is a new record (the cache is invalidated), so it gets a new answer.
  const validAnswers = new WeakMap<KeyRecord, Verification>();
  function plainValid(record: KeyRecord): Verification {
    let valid = validAnswers.get(record);
    if (valid === undefined) {
      valid = {
        valid: true,
        code: "VALID",
        keyId: record.id,
        wallet: record.wallet,
        expiresAt: record.expiresAt,
        ratelimit: null,
        permissions: record.permissions,
        credits: null,
        meta: record.meta,
      };
      validAnswers.set(record, Object.freeze(valid));
    }
    return valid;
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

  // --- Rate limits: the key's window, then the wallet's. ---

  function consumeLimits(record: KeyRecord, atMs: number): LimitsVerdict | Promise<LimitsVerdict> {
    const rule = record.rateLimit;
    if (rule === null) return record.walletRateLimit === null ? UNLIMITED : afterKey(record, null, atMs);
    const result = rateLimiter.consume(record.id, rule.limit, rule.windowSeconds, atMs);
    if ("then" in result) return result.then((r) => afterKey(record, r, atMs));
    return afterKey(record, result, atMs);
  }

  // The key's own window has answered (null: the key has none); the wallet's is consumed only
  // when the key's allowed the request, so a key-limited refusal leaves the wallet window alone.
  function afterKey(
    record: KeyRecord,
    key: RateLimitResult | null,
    atMs: number,
  ): LimitsVerdict | Promise<LimitsVerdict> {
    if (key !== null && !key.allowed) return { allowed: false, window: key };
    const rule = record.walletRateLimit;
    if (rule === null) return { allowed: true, window: key };
    const result = rateLimiter.consume(walletWindowId(record.wallet), rule.limit, rule.windowSeconds, atMs);
    if ("then" in result) return result.then((r) => afterWallet(record, key, r, atMs));
    return afterWallet(record, key, result, atMs);
  }

  function afterWallet(
    record: KeyRecord,
    key: RateLimitResult | null,
    wallet: RateLimitResult,
    atMs: number,
  ): LimitsVerdict | Promise<LimitsVerdict> {
    if (wallet.allowed) {
      const window = key !== null && key.remaining < wallet.remaining ? key : wallet;
      return { allowed: true, window };
    }
    // The wallet refused: the key's window gets back what this request took from it.
    const given = refundKey(record, atMs);
    const refused: LimitsVerdict = { allowed: false, window: wallet };
    return given === undefined ? refused : given.then(() => refused);
  }

  function refundKey(record: KeyRecord, atMs: number): void | Promise<void> {
    const rule = record.rateLimit;
    return rule === null ? undefined : rateLimiter.refund(record.id, rule.windowSeconds, atMs);
  }

  function refundBoth(record: KeyRecord, atMs: number): void | Promise<void> {
    const key = refundKey(record, atMs);
    const rule = record.walletRateLimit;
    const wallet =
      rule === null ? undefined : rateLimiter.refund(walletWindowId(record.wallet), rule.windowSeconds, atMs);
    if (key === undefined && wallet === undefined) return undefined;
    return Promise.all([key, wallet]).then(() => undefined);
  }

  /** A window after the request it counted was given back. */
  function givenBack(window: RateLimitResult | null): RateLimitResult | null {
    if (window === null) return null;
    return { ...window, remaining: Math.min(window.limit, window.remaining + 1) };
  }

  // --- The decision. ---

  function decide(record: KeyRecord, options: VerifyOptions | undefined, deadline: Deadline) {
    const atMs = now();
    if (record.revokedAt !== null && record.revokedAt.getTime() <= atMs)
      return answer(record, "REVOKED", atMs, null, null, deadline, options);
    if (record.expiresAt !== null && record.expiresAt.getTime() <= atMs)
      return answer(record, "EXPIRED", atMs, null, null, deadline, options);
    // Before any window or balance is touched: a refused address spends nothing.
    const allowed = record.allowedIps;
    if (allowed !== null && (options?.ip === undefined || !allowed.allows(options.ip)))
      return answer(record, "IP_NOT_ALLOWED", atMs, null, null, deadline, options);
    const wanted = options?.permissions;
    if (wanted !== undefined && wanted.length > 0 && !holdsAll(record.permissions, wanted))
      return answer(record, "INSUFFICIENT_PERMISSIONS", atMs, null, null, deadline, options);
    const cost = options?.cost ?? 1;
    const verdict = consumeLimits(record, atMs);
    if ("then" in verdict)
      return verdict.then((v) => afterLimits(record, v, cost, atMs, deadline, options), failed);
    return afterLimits(record, verdict, cost, atMs, deadline, options);
  }

  function afterLimits(
    record: KeyRecord,
    verdict: LimitsVerdict,
    cost: number,
    atMs: number,
    deadline: Deadline,
    ask: VerifyOptions | undefined,
  ): Verification | Promise<Verification> {
    const creditsId = record.creditsId;
    if (creditsId === null) {
      return answer(
        record,
        verdict.allowed ? "VALID" : "RATE_LIMITED",
        atMs,
        verdict.window,
        null,
        deadline,
        ask,
      );
    }
    if (!verdict.allowed) {
      // Refused by a rate limit: the balance is read, not spent; a short one outranks the limit.
      return credits
        .read(creditsId, cost, atMs)
        .then(
          (balance) =>
            answer(
              record,
              balance.ok ? "RATE_LIMITED" : "USAGE_EXCEEDED",
              atMs,
              verdict.window,
              balance,
              deadline,
              ask,
            ),
          failed,
        );
    }
    return credits.spend(creditsId, cost, atMs, record.id).then(async (balance) => {
      if (balance.ok) return answer(record, "VALID", atMs, verdict.window, balance, deadline, ask);
      // Too few credits: the windows get back what this request took, and the answer shows the
      // binding window as it now is (a refusal spends none of it).
      await refundBoth(record, atMs);
      return answer(record, "USAGE_EXCEEDED", atMs, givenBack(verdict.window), balance, deadline, ask);
    }, failed);
  }

  return {
    verify(key, options, deadline) {
      // The cache first, the format and checksum only on a miss: only a key that passed them is
      // ever loaded, so every cached hash (known or unknown) is a well-formed key's, and a cached
      // key's checks would only repeat (about a µs a verification). A malformed key misses the
      // cache and is refused below exactly as before, its lookup not counted.
      const hash = hashKey(key);
      const cached = cache.get(hash);
      if (cached === null) {
        metrics.cacheLookup("negative_hit");
        return notFound();
      }
      if (cached !== undefined) {
        metrics.cacheLookup("hit");
        return decide(cached, options, deadline);
      }
      if (!isWellFormed(key)) return notFound();
      metrics.cacheLookup("miss");
      return load(hash).then(
        (record) => (record === null ? notFound() : decide(record, options, deadline)),
        failed,
      );
    },
  };
}
