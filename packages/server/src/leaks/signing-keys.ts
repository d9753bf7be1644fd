import { createPublicKey, type KeyObject } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import { errorSummary } from "../logger.js";

/** GitHub's `meta/public_keys/secret_scanning` answer (GitLab's keys endpoint takes the same shape). */
const keysDocument = z.object({
  public_keys: z
    .array(
      z.object({
        key_identifier: z.string().min(1),
        key: z.string().min(1),
        is_current: z.boolean().optional(),
      }),
    )
    .max(100),
});

/** A key for an identifier: the key, `unknown` (the set has none by that name), or `unavailable` (no set could ever be fetched). */
export type SigningKeyLookup = KeyObject | "unknown" | "unavailable";

/** The public keys a scanner signs its reports with, fetched and cached. */
export interface SigningKeySet {
  find(identifier: string): Promise<SigningKeyLookup>;
}

export interface SigningKeySetOptions {
  /** GITHUB_SECRET_SCANNING_KEYS_URL or GITLAB_SECRET_DETECTION_KEYS_URL. */
  url: string;
  logger: Logger;
  /** How long a fetched set is used before it is fetched again (1 h). */
  maxAgeMs?: number;
  /** The least time between two fetches after a failed one (1 min). */
  refetchAfterMs?: number;
  /**
   * The least time between the last good fetch and one caused by an identifier the set does not hold
   * (5 s): a newly published key is used at once, and unknown identifiers cost at most one fetch per 5 s.
   */
  unknownRefetchAfterMs?: number;
  /** A fetch that has not answered by then fails (5 s). */
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The key set at `url`: fetched on first use, used for an hour, fetched again at once for an
 * identifier it does not hold when the last fetch is at least 5 s old (a minute after a failed one),
 * and kept as it was when a fetch fails (docs/leaks.md).
 * Concurrent lookups share one fetch.
 * @example const keys = createSigningKeySet({ url: env.GITHUB_SECRET_SCANNING_KEYS_URL, logger }); await keys.find(identifier);
 */
export function createSigningKeySet(options: SigningKeySetOptions): SigningKeySet {
  const { url, logger } = options;
  const maxAgeMs = options.maxAgeMs ?? 3_600_000;
  const refetchAfterMs = options.refetchAfterMs ?? 60_000;
  const unknownRefetchAfterMs = options.unknownRefetchAfterMs ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const now = options.now ?? (() => Date.now());
  let keys: Map<string, KeyObject> | null = null;
  let fetchedAt = 0;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | null = null;

  async function load(): Promise<void> {
    attemptedAt = now();
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: "application/json" },
      });
      if (!response.ok) throw new Error(`the keys endpoint answered ${response.status}`);
      const parsed = keysDocument.parse(await response.json());
      const next = new Map<string, KeyObject>();
      for (const entry of parsed.public_keys) {
        try {
          next.set(entry.key_identifier, createPublicKey(entry.key));
        } catch {
          logger.warn({ keysUrl: url }, "leak reports: a published key is not a public key, skipped");
        }
      }
      keys = next;
      fetchedAt = now();
    } catch (error) {
      logger.warn(
        { keysUrl: url, err: errorSummary(error) },
        "leak reports: fetching the signing keys failed",
      );
    }
  }

  function refresh(): Promise<void> {
    inFlight ??= load().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  return {
    async find(identifier) {
      if (inFlight !== null) await inFlight;
      // Due after an hour; after a failed fetch, tried again at most once a minute.
      const due = keys === null || now() - fetchedAt >= maxAgeMs;
      if (due && now() - attemptedAt >= refetchAfterMs) await refresh();
      let key = keys?.get(identifier);
      // A key GitHub has just published: fetch again at once, unless the last fetch was moments
      // ago (or failed, then a minute ago), so made-up identifiers cannot make every report a fetch.
      const lastFailed = fetchedAt < attemptedAt;
      const gapMs = lastFailed ? refetchAfterMs : unknownRefetchAfterMs;
      if (key === undefined && keys !== null && now() - attemptedAt >= gapMs) {
        await refresh();
        key = keys?.get(identifier);
      }
      if (key !== undefined) return key;
      return keys === null ? "unavailable" : "unknown";
    },
  };
}
