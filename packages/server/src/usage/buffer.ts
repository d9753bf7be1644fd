import { hourStart, USAGE_OUTCOMES, type UsageOutcome } from "./outcome.js";
import {
  createRecentSamples,
  RECENT_VERIFICATIONS_PER_KEY,
  type RefusingLimit,
  type VerificationAsk,
  type VerificationSample,
} from "./recent.js";

/** One rollup increment: `count` more verifications of `keyId` in `hour` with `outcome`. */
export interface UsageCountRow {
  keyId: string;
  wallet: string;
  hour: Date;
  outcome: UsageOutcome;
  count: number;
}

/** One of a key's recent verifications: what the verify request asked, never the key or its hash. */
export interface RecentVerificationRow {
  keyId: string;
  at: Date;
  outcome: UsageOutcome;
  permissions: readonly string[];
  cost: number;
  ip: string | null;
  /** The limit that refused a RATE_LIMITED verification; null otherwise. */
  refusedBy: RefusingLimit | null;
}

/**
 * What one flush writes. Counts are deltas to add; `lastUsed` moves a key's timestamp forward;
 * `recent` holds at most RECENT_VERIFICATIONS_PER_KEY samples a key, oldest first per key.
 */
export interface UsageBatch {
  counts: UsageCountRow[];
  lastUsed: Array<{ keyId: string; at: Date }>;
  recent: RecentVerificationRow[];
}

/** Options of {@link createUsageBuffer}. */
export interface UsageBufferOptions {
  /** Writes one batch, e.g. one upsert statement. Rejecting keeps the rows for a later retry. */
  sink: (batch: UsageBatch) => Promise<void>;
  /** Flush period. Default 1,000 ms. */
  flushIntervalMs?: number;
  /** Flush early once this many (key, hour) entries are pending. Default 5,000. */
  maxPendingRows?: number;
  /** A key's `lastUsedAt` is written at most once per this period. Default 60,000 ms. */
  lastUsedIntervalMs?: number;
  /**
   * Most recent-verification samples held between flushes, over all keys (each key holds at most
   * RECENT_VERIFICATIONS_PER_KEY). Reaching it flushes early; samples of keys not yet held are
   * dropped until then. Default 10,000.
   */
  maxPendingSamples?: number;
  /** Told about failed background flushes (they are retried on the next tick). */
  onError?: (error: unknown) => void;
}

/** Counts verifications in memory and writes them in batches, off the hot path. */
export interface UsageBuffer {
  /**
   * Counts one verification and keeps it among its key's recent verifications with what the request
   * asked (`ask`: its permissions, cost and ip are copied) and, for RATE_LIMITED, the limit that
   * refused it (`refusedBy`: its name and scope are copied). Synchronous and O(1): never waits on a write.
   */
  record(
    keyId: string,
    wallet: string,
    outcome: UsageOutcome,
    atMs: number,
    ask?: VerificationAsk,
    refusedBy?: RefusingLimit | null,
  ): void;
  /** Writes everything pending now (waiting for a flush already in flight first). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; rejects, keeping the rows, if the sink fails. */
  close(): Promise<void>;
  /** (key, hour) entries waiting to be written. */
  readonly pendingRows: number;
}

// One pending entry per (key, hour): outcome counters in USAGE_OUTCOMES order avoid a string per outcome.
interface Pending {
  keyId: string;
  wallet: string;
  hour: number;
  counts: number[];
}

const OUTCOME_INDEX = {
  VALID: 0,
  RATE_LIMITED: 1,
  EXPIRED: 2,
  REVOKED: 3,
  INSUFFICIENT_PERMISSIONS: 4,
  USAGE_EXCEEDED: 5,
  IP_NOT_ALLOWED: 6,
  WALLET_SUSPENDED: 7,
} as const satisfies Record<UsageOutcome, number>;
const OUTCOMES_BY_INDEX: readonly UsageOutcome[] = USAGE_OUTCOMES;

/**
 * Creates the usage buffer. Flushes on an interval, early when `maxPendingRows` entries are
 * pending, and on `close()`. One flush is in flight at a time; a failed one merges its rows
 * back, so a counted verification is only ever dropped by a crash, never by an error.
 *
 * @example
 * const usage = createUsageBuffer({ sink: (batch) => writeUsage(db, batch) });
 * usage.record(key.id, key.wallet, "VALID", Date.now());
 * process.once("SIGTERM", () => void usage.close());
 */
export function createUsageBuffer(options: UsageBufferOptions): UsageBuffer {
  const { sink, onError } = options;
  const maxPendingRows = options.maxPendingRows ?? 5_000;
  const lastUsedIntervalMs = options.lastUsedIntervalMs ?? 60_000;

  let pending = new Map<string, Pending>();
  // Each key's entry for the latest hour it was counted in, so a verification finds its counters
  // without building the "hour:key" id (a string and its hash, on every verification).
  let latest = new Map<string, Pending>();
  let pendingLastUsed = new Map<string, number>();
  const maxPendingSamples = options.maxPendingSamples ?? 10_000;
  const samples = createRecentSamples(RECENT_VERIFICATIONS_PER_KEY, maxPendingSamples);
  // When each key's lastUsedAt was last queued: the coalescing memory, pruned as it ages out.
  const lastQueued = new Map<string, number>();
  let latestMs = 0;
  let lastPruneMs = 0;
  let inFlight: Promise<void> | undefined;
  let earlyFlushScheduled = false;
  let failedSinceTick = false;
  let closed = false;

  const timer = setInterval(() => {
    failedSinceTick = false;
    flush().catch((error: unknown) => onError?.(error));
  }, options.flushIntervalMs ?? 1_000);
  timer.unref();

  function mergeBack(rows: Map<string, Pending>, lastUsed: Map<string, number>): void {
    for (const [id, row] of rows) {
      const entry = pending.get(id);
      if (entry === undefined) {
        pending.set(id, row);
        continue;
      }
      for (let i = 0; i < entry.counts.length; i++)
        entry.counts[i] = (entry.counts[i] ?? 0) + (row.counts[i] ?? 0);
    }
    for (const [keyId, at] of lastUsed) {
      if ((pendingLastUsed.get(keyId) ?? 0) < at) pendingLastUsed.set(keyId, at);
    }
  }

  // Runs off the hot path (in a flush), so its O(keys) walk never delays a verification.
  function pruneLastQueued(): void {
    if (latestMs - lastPruneMs < lastUsedIntervalMs) return;
    lastPruneMs = latestMs;
    for (const [keyId, at] of lastQueued) {
      if (latestMs - at >= lastUsedIntervalMs) lastQueued.delete(keyId);
    }
  }

  function scheduleEarlyFlush(): void {
    // After a failure, wait for the next tick rather than retrying on every request.
    if (earlyFlushScheduled || inFlight !== undefined || failedSinceTick) return;
    earlyFlushScheduled = true;
    setImmediate(() => {
      earlyFlushScheduled = false;
      flush().catch((error: unknown) => onError?.(error));
    });
  }

  async function flushOnce(): Promise<void> {
    pruneLastQueued();
    if (pending.size === 0 && pendingLastUsed.size === 0 && samples.size === 0) return;
    const rows = pending;
    const lastUsed = pendingLastUsed;
    const recent = samples.take();
    pending = new Map();
    latest = new Map();
    pendingLastUsed = new Map();
    try {
      await sink(toBatch(rows, lastUsed, recent));
    } catch (error) {
      failedSinceTick = true;
      mergeBack(rows, lastUsed);
      samples.putBack(recent);
      throw error;
    }
  }

  // Each flush queues behind the previous one, so the sink never runs twice at once.
  function flush(): Promise<void> {
    const run = (inFlight ?? Promise.resolve()).catch(() => undefined).then(flushOnce);
    inFlight = run;
    run
      .finally(() => {
        if (inFlight === run) inFlight = undefined;
      })
      .catch(() => undefined);
    return run;
  }

  return {
    get pendingRows() {
      return pending.size;
    },
    record(keyId, wallet, outcome, atMs, ask, refusedBy) {
      const hour = hourStart(atMs);
      let entry = latest.get(keyId);
      if (entry === undefined || entry.hour !== hour) {
        const id = `${hour}:${keyId}`;
        entry = pending.get(id);
        if (entry === undefined) {
          entry = { keyId, wallet, hour, counts: USAGE_OUTCOMES.map(() => 0) };
          pending.set(id, entry);
        }
        latest.set(keyId, entry);
      }
      entry.counts[OUTCOME_INDEX[outcome]] = (entry.counts[OUTCOME_INDEX[outcome]] ?? 0) + 1;

      if (atMs > latestMs) latestMs = atMs;
      // "Last used" is the last use that got in (docs/decisions.md#usage): a refused attempt is only
      // listed among the key's recent verifications, so a leaked key's page tells whether it was used.
      const queued = outcome === "VALID" ? lastQueued.get(keyId) : atMs;
      if (queued === undefined || atMs - queued >= lastUsedIntervalMs) {
        lastQueued.set(keyId, atMs);
        pendingLastUsed.set(keyId, atMs);
      }
      const kept = samples.add(keyId, {
        atMs,
        outcome,
        permissions: ask?.permissions,
        cost: ask?.cost,
        ip: ask?.ip,
        refusedBy: refusedBy == null ? undefined : { name: refusedBy.name, scope: refusedBy.scope },
      });
      // Once closed there is no timer: a straggler is written right away.
      if (closed || pending.size >= maxPendingRows || !kept || samples.size >= maxPendingSamples)
        scheduleEarlyFlush();
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      // Verifications finishing during the final write are written too.
      do await flush();
      while (pending.size > 0 || pendingLastUsed.size > 0 || samples.size > 0);
    },
  };
}

function toBatch(
  rows: Map<string, Pending>,
  lastUsed: Map<string, number>,
  recent: Map<string, VerificationSample[]>,
): UsageBatch {
  const counts: UsageCountRow[] = [];
  for (const row of rows.values()) {
    const hour = new Date(row.hour);
    row.counts.forEach((count, i) => {
      const outcome = OUTCOMES_BY_INDEX[i];
      if (count > 0 && outcome !== undefined) {
        counts.push({ keyId: row.keyId, wallet: row.wallet, hour, outcome, count });
      }
    });
  }
  return {
    counts,
    lastUsed: Array.from(lastUsed, ([keyId, at]) => ({ keyId, at: new Date(at) })),
    recent: toRecentRows(recent),
  };
}

// The request's defaults apply here, off the hot path: no permissions asked, cost 1 (docs/api.md, verify).
function toRecentRows(recent: Map<string, VerificationSample[]>): RecentVerificationRow[] {
  const rows: RecentVerificationRow[] = [];
  for (const [keyId, list] of recent) {
    for (const sample of list) {
      rows.push({
        keyId,
        at: new Date(sample.atMs),
        outcome: sample.outcome,
        permissions: sample.permissions ?? [],
        cost: sample.cost ?? 1,
        ip: sample.ip ?? null,
        refusedBy: sample.refusedBy ?? null,
      });
    }
  }
  return rows;
}
