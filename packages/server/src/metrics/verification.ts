import { Counter, Gauge, type Registry } from "prom-client";
import { VERIFICATION_CODES, type VerificationCode } from "../schemas/verification.js";
import type { KeyCache } from "../verify/cache.js";

/** What a key cache lookup found. */
export type CacheLookup = "hit" | "negative_hit" | "miss";

/** What the verifier reports; each call is one integer increment. */
export interface VerifierMetrics {
  /** One verification answered with `code`. */
  verified(code: VerificationCode): void;
  /** One verification that failed without an answer (e.g. the database is down). */
  failed(): void;
  /** One key cache lookup. */
  cacheLookup(result: CacheLookup): void;
}

/** The default when no metrics are wanted (unit tests of the verifier). */
export const NO_VERIFIER_METRICS: VerifierMetrics = {
  verified: () => undefined,
  failed: () => undefined,
  cacheLookup: () => undefined,
};

const OUTCOMES = [...VERIFICATION_CODES, "ERROR"] as const;
const LOOKUPS: readonly CacheLookup[] = ["hit", "negative_hit", "miss"];

/**
 * Creates `keyport_verifications_total{outcome}`, `keyport_key_cache_lookups_total{result}` and
 * `keyport_key_cache_entries`. The hot path bumps plain numbers; prom-client reads them only when
 * scraped, so a verification pays no label hashing.
 */
export function createVerifierMetrics(
  registry: Registry,
  cache: () => KeyCache | undefined,
): VerifierMetrics {
  const outcomes: Record<(typeof OUTCOMES)[number], number> = {
    VALID: 0,
    NOT_FOUND: 0,
    REVOKED: 0,
    EXPIRED: 0,
    RATE_LIMITED: 0,
    INSUFFICIENT_PERMISSIONS: 0,
    USAGE_EXCEEDED: 0,
    IP_NOT_ALLOWED: 0,
    WALLET_SUSPENDED: 0,
    ERROR: 0,
  };
  const lookups: Record<CacheLookup, number> = { hit: 0, negative_hit: 0, miss: 0 };

  new Counter({
    name: "keyport_verifications_total",
    help: "Key verifications by outcome (the Verification code, or ERROR when none could be given)",
    labelNames: ["outcome"],
    registers: [registry],
    collect() {
      this.reset();
      for (const outcome of OUTCOMES) this.inc({ outcome }, outcomes[outcome]);
    },
  });
  new Counter({
    name: "keyport_key_cache_lookups_total",
    help: "Key cache lookups: hit (a key), negative_hit (a hash known to match no key), miss (read from the database)",
    labelNames: ["result"],
    registers: [registry],
    collect() {
      this.reset();
      for (const result of LOOKUPS) this.inc({ result }, lookups[result]);
    },
  });
  new Gauge({
    name: "keyport_key_cache_entries",
    help: "Keys held in the in-process key cache",
    registers: [registry],
    collect() {
      this.set(cache()?.size ?? 0);
    },
  });

  return {
    verified: (code) => {
      outcomes[code]++;
    },
    failed: () => {
      outcomes.ERROR++;
    },
    cacheLookup: (result) => {
      lookups[result]++;
    },
  };
}
