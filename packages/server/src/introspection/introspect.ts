import { deriveStatus } from "../keys/status.js";
import type { LimitStore } from "../ratelimit/limit-store.js";
import { remainingOf, windowStartMs } from "../ratelimit/sliding-window.js";
import type { Introspection } from "../schemas/introspection.js";
import type { CreditsStore } from "../verify/credits-store.js";
import type { KeyRecord } from "../verify/key-record.js";
import type { IntrospectionLimit } from "./client-limit.js";
import { creditsView } from "./credits-view.js";

/** What introspection is built from: verification's own pieces, so both read the same state. */
export interface KeyIntrospectionDeps {
  /** Format and checksum check without I/O (`isWellFormedKey(key, prefix)`). */
  isWellFormed: (key: string) => boolean;
  /** Hex SHA-256 of the secret (`hashKey`). */
  hashKey: (key: string) => string;
  /** Reads a key by secret hash from the database; `null` when no key has that hash. */
  loadKeyByHash: (hash: string) => Promise<KeyRecord | null>;
  /** Verification's limits: peeked, never spent. */
  limits: LimitStore;
  /** Verification's credit balances: read, never spent. */
  credits: CreditsStore;
  /** Introspections per client address. */
  limit: IntrospectionLimit;
  /** The top-up URL of a key (introspection/top-up-url.ts), null when it cannot be topped up. */
  topUpUrl: (keyId: string, canBeToppedUp: boolean) => string | null;
  /** Epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** What an introspection answers: the key's state, no such key, or the client past its limit. */
export type IntrospectionAnswer =
  | { ok: true; introspection: Introspection }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "limited"; retryAfterSeconds: number };

export interface KeyIntrospection {
  /** Describes the key `key` for the client at `clientIp`, spending and counting nothing of the key's. */
  introspect(key: string, clientIp: string | undefined): Promise<IntrospectionAnswer>;
}

const NOT_FOUND: IntrospectionAnswer = Object.freeze({ ok: false, reason: "not_found" });

/**
 * Creates introspection (docs/verifying-keys.md#introspecting-a-key). The client's budget is
 * counted first, so a refused request costs no query. Every key, well-formed or not, costs one
 * database read by its hash (never the verification cache), so a malformed, a checksum-failing and
 * an unknown key take the same path and get the same answer. A found key's rate-limit windows are
 * peeked and its balance read (a refill due shows, nothing is written); no usage, event or
 * `lastUsedAt` is touched.
 * @example
 * const introspection = createKeyIntrospection({ isWellFormed, hashKey, loadKeyByHash, limits, credits, limit, topUpUrl });
 * const answer = await introspection.introspect(body.key, clientIp);
 */
export function createKeyIntrospection(deps: KeyIntrospectionDeps): KeyIntrospection {
  const { isWellFormed, hashKey, loadKeyByHash, limits, credits, limit } = deps;
  const now = deps.now ?? Date.now;

  // The limit a verification naming none would show as binding: of the auto-applied limits, the
  // one with the smallest remaining / limit (the first on a tie, as in verify.ts).
  async function bindingLimit(record: KeyRecord, atMs: number): Promise<Introspection["ratelimit"]> {
    const applied = record.autoLimits;
    if (applied.length === 0) return null;
    const counts = await limits.peek(record.wallet, applied, atMs);
    let best: Introspection["ratelimit"] = null;
    for (const [i, limit] of applied.entries()) {
      const start = windowStartMs(atMs, limit.windowMs);
      const remaining = remainingOf(
        limit.limit,
        limit.windowMs,
        atMs - start,
        counts[i] ?? { previous: 0, current: 0 },
      );
      if (best === null || remaining * best.limit < best.remaining * limit.limit) {
        best = {
          name: limit.name,
          scope: limit.scope,
          limit: limit.limit,
          remaining,
          resetAt: new Date(start + limit.windowMs),
        };
      }
    }
    return best;
  }

  async function describe(record: KeyRecord, atMs: number): Promise<Introspection> {
    const status = deriveStatus(record, new Date(atMs));
    const [ratelimit, balance] = await Promise.all([
      bindingLimit(record, atMs),
      record.creditsId === null ? null : credits.read(record.creditsId, 0, atMs),
    ]);
    return {
      keyId: record.id,
      status,
      expiresAt: record.expiresAt,
      ratelimit,
      credits: balance === null ? null : creditsView(balance),
      suspended: record.suspended,
      topUpUrl: deps.topUpUrl(
        record.id,
        status === "active" && record.creditsId !== null && !record.suspended,
      ),
    };
  }

  return {
    async introspect(key, clientIp) {
      const verdict = await limit.hit(clientIp);
      if (!verdict.allowed)
        return { ok: false, reason: "limited", retryAfterSeconds: verdict.retryAfterSeconds };
      const wellFormed = isWellFormed(key);
      // Read even when malformed: the answer and the work are the same as for an unknown key.
      const record = await loadKeyByHash(hashKey(key));
      if (!wellFormed || record === null) return NOT_FOUND;
      return { ok: true, introspection: await describe(record, now()) };
    },
  };
}
