import { TRPCError } from "@trpc/server";
import { deadlineError } from "../deadline.js";
import { NO_VERIFIER_METRICS, type VerifierMetrics } from "../metrics/verification.js";
import { type AppliedLimit, askedLimits } from "../ratelimit/applied-limits.js";
import type { LimitStore, LimitsOutcome } from "../ratelimit/limit-store.js";
import { earliestFit, remainingOf, type WindowCounts, windowStartMs } from "../ratelimit/sliding-window.js";
import type { LimitCost } from "../schemas/rate-limits.js";
import type { Verification } from "../schemas/verification.js";
import type { UsageBuffer } from "../usage/buffer.js";
import type { UsageOutcome } from "../usage/outcome.js";
import type { KeyCache } from "./cache.js";
import type { CreditsResult, CreditsStore } from "./credits-store.js";
import type { KeyPlan, KeyRecord } from "./key-record.js";

/** What the verifier is built from; every piece is injected so the hot path is testable alone. */
export interface KeyVerifierDeps {
  /** Format and checksum check without I/O (the foundation's `isWellFormedKey(key, prefix)`). */
  isWellFormed: (key: string) => boolean;
  /** Hex SHA-256 of the secret (the foundation's `hashKey`). */
  hashKey: (key: string) => string;
  /** Reads a key by secret hash from the database; `null` when no key has that hash. */
  loadKeyByHash: (hash: string) => Promise<KeyRecord | null>;
  cache: KeyCache;
  /** Where the key's and its wallet's sliding-window limits count (this process, or Redis). */
  limits: LimitStore;
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
  /** Named limits to apply with a cost; auto-applied ones not named here cost 1. */
  ratelimits?: readonly LimitCost[] | undefined;
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

// Shared and frozen: the commonest failure allocates nothing.
const NOT_FOUND: Verification = Object.freeze({
  valid: false,
  code: "NOT_FOUND",
  keyId: null,
  wallet: null,
  expiresAt: null,
  ratelimit: null,
  ratelimits: [],
  permissions: [],
  credits: null,
  meta: null,
  plan: null,
});

/** The answer's `plan` of a record: one object per plan a record carries (none allocated per answer). */
const planAnswers = new WeakMap<KeyPlan, { id: string; name: string }>();
function planOf(record: KeyRecord): Verification["plan"] {
  const plan = record.plan;
  if (plan === undefined) return null;
  let view = planAnswers.get(plan);
  if (view === undefined) {
    view = Object.freeze({ id: plan.id, name: plan.name });
    planAnswers.set(plan, view);
  }
  return view;
}

/** The limits' verdict on one request: the applied limits and their counts after it (empty: none). */
interface LimitsVerdict {
  allowed: boolean;
  applied: readonly AppliedLimit[];
  counts: readonly WindowCounts[];
}

const UNLIMITED: LimitsVerdict = Object.freeze({ allowed: true, applied: [], counts: [] });

type Deadline = { readonly aborted: boolean } | undefined;

/**
 * Creates the verifier. Order of outcomes (their precedence in docs/api.md): REVOKED > EXPIRED >
 * WALLET_SUSPENDED > IP_NOT_ALLOWED > INSUFFICIENT_PERMISSIONS > USAGE_EXCEEDED > RATE_LIMITED > VALID.
 *
 * Order of work: every applied limit, the key's and its wallet's, checked in one call and spent
 * only when all fit (docs/verifying-keys.md#named-limits); then, for a key with credits, one
 * conditional spend of `cost`, and when the balance is short, the limits get their costs back. When
 * a limit refuses, the balance is read (not spent): a short balance answers USAGE_EXCEEDED, as the
 * precedence says. So a refused request spends neither credits nor any limit. `ratelimit` shows
 * the binding limit, `ratelimits` all of them. A name in `ratelimits` that neither the key nor its
 * wallet has is 400 (a TRPCError thrown once the key is found). Every outcome of a known key is counted in the usage buffer; NOT_FOUND never
 * is. Concurrent cache misses for one hash share one database read.
 *
 * @example
 * const verifier = createKeyVerifier({ isWellFormed: (k) => isWellFormedKey(k, env.KEY_PREFIX), hashKey,
 *   loadKeyByHash, cache, limits, credits, usage });
 * const verification = await verifier.verify(body.key, { permissions: ["prices:read"], cost: 1 });
 */
export function createKeyVerifier(deps: KeyVerifierDeps): KeyVerifier {
  const { isWellFormed, hashKey, loadKeyByHash, cache, limits, credits, usage } = deps;
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
    limits: LimitsVerdict,
    balance: CreditsResult | null,
    deadline: Deadline,
    ask: VerifyOptions | undefined,
  ): Verification {
    // Past its deadline the caller has been answered 503: this verification must not count.
    if (deadline?.aborted) throw deadlineError();
    metrics.verified(code);
    if (code === "VALID" && limits.applied.length === 0 && balance === null) {
      usage.record(record.id, record.wallet, code, atMs, ask);
      return plainValid(record);
    }
    const ratelimits = limitsView(limits, atMs);
    const ratelimit = binding(ratelimits, limits, atMs);
    // A refusal by a limit is listed with that limit's name (recent verifications).
    usage.record(record.id, record.wallet, code, atMs, ask, code === "RATE_LIMITED" ? ratelimit : null);
    return {
      valid: code === "VALID",
      code,
      keyId: record.id,
      wallet: record.wallet,
      expiresAt: record.expiresAt,
      ratelimit,
      ratelimits,
      permissions: record.permissions,
      credits:
        balance === null
          ? null
          : { remaining: balance.remaining, purchased: balance.purchased, refillAt: balance.refillAt },
      meta: record.meta,
      plan: planOf(record),
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
        ratelimits: [],
        permissions: record.permissions,
        credits: null,
        meta: record.meta,
        plan: planOf(record),
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

  // --- Rate limits: every applied limit, the key's and the wallet's, in one call. ---

  function applyLimits(
    record: KeyRecord,
    ask: VerifyOptions | undefined,
    atMs: number,
  ): LimitsVerdict | Promise<LimitsVerdict> {
    let applied = record.autoLimits;
    const asked = ask?.ratelimits;
    if (asked !== undefined && asked.length > 0) {
      const found = askedLimits(
        record.id,
        record.rateLimits,
        record.walletRateLimits,
        asked,
        record.plan?.limits,
      );
      if (found.unknown !== undefined) {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `Neither this key nor its wallet has a rate limit named ${JSON.stringify(found.unknown)}`,
        });
      }
      applied = found.applied;
    }
    if (applied.length === 0) return UNLIMITED;
    const outcome = limits.apply(record.wallet, applied, atMs);
    if ("then" in outcome) return outcome.then((o) => verdictOf(applied, o));
    return verdictOf(applied, outcome);
  }

  function verdictOf(applied: readonly AppliedLimit[], outcome: LimitsOutcome): LimitsVerdict {
    return { allowed: outcome.allowed, applied, counts: outcome.counts };
  }

  /** The verdict after an allowed request's costs were given back: the counts as they now are. */
  function givenBack(verdict: LimitsVerdict): LimitsVerdict {
    const counts = verdict.counts.map((c, i) => ({
      previous: c.previous,
      current: Math.max(0, c.current - (verdict.applied[i]?.cost ?? 0)),
    }));
    return { allowed: true, applied: verdict.applied, counts };
  }

  /** Each applied limit in the answer's shape. */
  function limitsView(verdict: LimitsVerdict, atMs: number): Verification["ratelimits"] {
    const view: Verification["ratelimits"] = [];
    for (const [i, limit] of verdict.applied.entries()) {
      const counts = verdict.counts[i] ?? { previous: 0, current: 0 };
      const start = windowStartMs(atMs, limit.windowMs);
      const remaining = remainingOf(limit.limit, limit.windowMs, atMs - start, counts);
      const refusing = !verdict.allowed && remaining < limit.cost;
      const resetAt = refusing
        ? earliestFit(limit.limit, limit.windowMs, atMs, counts, limit.cost)
        : start + limit.windowMs;
      view.push({
        name: limit.name,
        scope: limit.scope,
        limit: limit.limit,
        remaining,
        resetAt: new Date(resetAt),
      });
    }
    return view;
  }

  /**
   * The binding limit: the first that refused (when the limits refused), else the one with the
   * smallest remaining / limit (the first on a tie); null when none applied.
   */
  function binding(
    view: Verification["ratelimits"],
    verdict: LimitsVerdict,
    _atMs: number,
  ): Verification["ratelimit"] {
    let best: Verification["ratelimit"] = null;
    for (const [i, limit] of view.entries()) {
      const cost = verdict.applied[i]?.cost ?? 0;
      if (!verdict.allowed && limit.remaining < cost) return limit;
      if (best === null || limit.remaining * best.limit < best.remaining * limit.limit) best = limit;
    }
    return best;
  }

  // --- The decision. ---

  function decide(record: KeyRecord, options: VerifyOptions | undefined, deadline: Deadline) {
    const atMs = now();
    if (record.revokedAt !== null && record.revokedAt.getTime() <= atMs)
      return answer(record, "REVOKED", atMs, UNLIMITED, null, deadline, options);
    if (record.expiresAt !== null && record.expiresAt.getTime() <= atMs)
      return answer(record, "EXPIRED", atMs, UNLIMITED, null, deadline, options);
    // The operator suspended the wallet (docs/operator.md#suspension): refused before any window or
    // balance is touched, so a suspension spends nothing, and its keys are as they were once lifted.
    if (record.suspended) return answer(record, "WALLET_SUSPENDED", atMs, UNLIMITED, null, deadline, options);
    // Before any window or balance is touched: a refused address spends nothing.
    const allowed = record.allowedIps;
    if (allowed !== null && (options?.ip === undefined || !allowed.allows(options.ip)))
      return answer(record, "IP_NOT_ALLOWED", atMs, UNLIMITED, null, deadline, options);
    const wanted = options?.permissions;
    // Granted only when both the key and its wallet's plan grant it (docs/plans.md#permissions).
    const planGrants = record.plan?.permissions ?? null;
    if (
      wanted !== undefined &&
      wanted.length > 0 &&
      (!holdsAll(record.permissions, wanted) || (planGrants !== null && !holdsAll(planGrants, wanted)))
    )
      return answer(record, "INSUFFICIENT_PERMISSIONS", atMs, UNLIMITED, null, deadline, options);
    const cost = options?.cost ?? 1;
    const verdict = applyLimits(record, options, atMs);
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
      return answer(record, verdict.allowed ? "VALID" : "RATE_LIMITED", atMs, verdict, null, deadline, ask);
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
              verdict,
              balance,
              deadline,
              ask,
            ),
          failed,
        );
    }
    return credits.spend(creditsId, cost, atMs, record.id).then(async (balance) => {
      if (balance.ok) return answer(record, "VALID", atMs, verdict, balance, deadline, ask);
      // Too few credits: the limits get back what this request took, and the answer shows them as
      // they now are (a refusal spends none of them).
      if (verdict.applied.length > 0) await limits.refund(record.wallet, verdict.applied, atMs);
      return answer(record, "USAGE_EXCEEDED", atMs, givenBack(verdict), balance, deadline, ask);
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
        // A paid plan that ended since the key was cached: read it again, under the default plan.
        const until = cached.plan?.until ?? null;
        if (until === null || until > now()) {
          metrics.cacheLookup("hit");
          return decide(cached, options, deadline);
        }
        cache.invalidate(cached.id);
        metrics.cacheLookup("miss");
        return load(hash).then(
          (record) => (record === null ? notFound() : decide(record, options, deadline)),
          failed,
        );
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
