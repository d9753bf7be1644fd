import type { UsageOutcome } from "./outcome.js";

/** How many of a key's verifications are kept, in memory and in `key_verifications` (docs/decisions.md, "Recent verifications"). */
export const RECENT_VERIFICATIONS_PER_KEY = 50;

/** What a verify request asked beyond its key (the verifier's `VerifyOptions`). */
export interface VerificationAsk {
  ip?: string | undefined;
  permissions?: readonly string[] | undefined;
  cost?: number | undefined;
}

/** The limit that refused a RATE_LIMITED verification: its name and whose it is. */
export interface RefusingLimit {
  name: string;
  scope: "key" | "wallet" | "plan";
}

/**
 * One verification as its key's recent verifications keep it: the asked fields are copied out of
 * the request, so the request (which holds the secret) is never retained; defaults apply at write.
 */
export interface VerificationSample {
  atMs: number;
  outcome: UsageOutcome;
  permissions: readonly string[] | undefined;
  cost: number | undefined;
  ip: string | undefined;
  /** The limit that refused it (RATE_LIMITED only). */
  refusedBy: RefusingLimit | undefined;
}

/** The newest samples of each key, at most `perKey` a key and `maxTotal` in all, oldest first per key. */
export interface RecentSamples {
  /** Keeps one sample (O(1)); false when it was dropped because `maxTotal` samples are pending. */
  add(keyId: string, sample: VerificationSample): boolean;
  /** Hands over every pending sample, oldest first per key, and starts empty. */
  take(): Map<string, VerificationSample[]>;
  /** Puts back what a failed write took, behind newer samples; still within both bounds. */
  putBack(taken: Map<string, VerificationSample[]>): void;
  /** Samples pending in all. */
  readonly size: number;
}

// A key's samples as a ring: once full, the oldest is overwritten in place.
interface Ring {
  items: VerificationSample[];
  start: number;
}

function ordered(ring: Ring): VerificationSample[] {
  return ring.start === 0
    ? ring.items
    : [...ring.items.slice(ring.start), ...ring.items.slice(0, ring.start)];
}

/**
 * Creates the store. A key's 51st sample replaces its oldest, so a busy key costs no more memory
 * than a quiet one; `maxTotal` bounds a flood of distinct keys between two flushes (new keys'
 * samples are then dropped until the next flush; their usage counts are not).
 */
export function createRecentSamples(perKey: number, maxTotal: number): RecentSamples {
  let rings = new Map<string, Ring>();
  let size = 0;

  return {
    get size() {
      return size;
    },
    add(keyId, sample) {
      const ring = rings.get(keyId);
      if (ring !== undefined && ring.items.length >= perKey) {
        ring.items[ring.start] = sample;
        ring.start = (ring.start + 1) % perKey;
        return true;
      }
      if (size >= maxTotal) return false;
      size++;
      if (ring === undefined) rings.set(keyId, { items: [sample], start: 0 });
      else ring.items.push(sample);
      return true;
    },
    take() {
      const taken = new Map<string, VerificationSample[]>();
      for (const [keyId, ring] of rings) taken.set(keyId, ordered(ring));
      rings = new Map();
      size = 0;
      return taken;
    },
    putBack(taken) {
      for (const [keyId, older] of taken) {
        const ring = rings.get(keyId);
        const newer = ring === undefined ? [] : ordered(ring);
        const room = Math.max(0, Math.min(perKey - newer.length, maxTotal - size));
        if (room === 0) continue;
        const kept = [...older.slice(-room), ...newer];
        rings.set(keyId, { items: kept, start: 0 });
        size += kept.length - newer.length;
      }
    },
  };
}
