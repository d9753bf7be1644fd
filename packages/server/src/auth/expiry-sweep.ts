import { inArray, lte } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { keyEvents, operatorEvents, sessions, siweNonces } from "../db/schema/index.js";
import { errorSummary } from "../logger.js";

/** Rows one sweep deleted, by table. */
export interface SweepCounts {
  nonces: number;
  sessions: number;
  /** Audit events older than the retention (0 when events are kept forever). */
  events: number;
  /** Operator audit events older than the retention (0 when events are kept forever). */
  operatorEvents?: number;
  /** Webhook messages past their retention, with their deliveries (webhooks/retention.ts). */
  webhookMessages?: number;
  /** `key.expiring` and `key.expired` webhooks written (webhooks/expiry-events.ts), when the sweep sends them. */
  expiryNotices?: number;
}

/** How much one sweep may delete. */
export interface SweepLimits {
  /** Rows one DELETE removes at most (default 1,000), so no statement holds the database for long. */
  batchSize?: number;
  /** DELETEs a sweep runs at most per table (default 10); what is left waits for the next sweep. */
  maxBatches?: number;
  /** Audit events at or before this time are deleted (EVENTS_RETENTION_DAYS); null or absent keeps them. */
  eventsBefore?: Date | null;
}

/**
 * Deletes nonces and sessions that expired at or before `now`; nothing can use them again. Deletes
 * audit events (the wallets' and the operator's) at or before `limits.eventsBefore` too (the retention). A used
 * nonce or a logged-out session goes at its expiry too (at most 10 minutes, SESSION_TTL_SECONDS
 * later), so a row never vanishes while a caller may still be looking at it. Each DELETE takes at
 * most `batchSize` rows, skipping rows another transaction holds (another instance's sweep), so it
 * never waits on them.
 * @example await sweepExpired(db, new Date()) // { nonces: 3, sessions: 1 }
 */
export async function sweepExpired(db: Db, now: Date, limits: SweepLimits = {}): Promise<SweepCounts> {
  const batchSize = limits.batchSize ?? 1_000;
  const maxBatches = limits.maxBatches ?? 10;

  async function inBatches(deleteBatch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const deleted = await deleteBatch();
      total += deleted;
      if (deleted < batchSize) break;
    }
    return total;
  }

  const nonces = await inBatches(async () => {
    const doomed = db
      .select({ nonce: siweNonces.nonce })
      .from(siweNonces)
      .where(lte(siweNonces.expiresAt, now))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const rows = await db
      .delete(siweNonces)
      .where(inArray(siweNonces.nonce, doomed))
      .returning({ nonce: siweNonces.nonce });
    return rows.length;
  });
  const ended = await inBatches(async () => {
    const doomed = db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .where(lte(sessions.expiresAt, now))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const rows = await db
      .delete(sessions)
      .where(inArray(sessions.tokenHash, doomed))
      .returning({ tokenHash: sessions.tokenHash });
    return rows.length;
  });
  const eventsBefore = limits.eventsBefore ?? null;
  const events =
    eventsBefore === null
      ? 0
      : await inBatches(async () => {
          const doomed = db
            .select({ id: keyEvents.id })
            .from(keyEvents)
            .where(lte(keyEvents.at, eventsBefore))
            .limit(batchSize)
            .for("update", { skipLocked: true });
          const rows = await db
            .delete(keyEvents)
            .where(inArray(keyEvents.id, doomed))
            .returning({ id: keyEvents.id });
          return rows.length;
        });
  // The operator trail is kept as long as the wallets' trails (docs/operator.md#audit).
  const operator =
    eventsBefore === null
      ? 0
      : await inBatches(async () => {
          const doomed = db
            .select({ id: operatorEvents.id })
            .from(operatorEvents)
            .where(lte(operatorEvents.at, eventsBefore))
            .limit(batchSize)
            .for("update", { skipLocked: true });
          const rows = await db
            .delete(operatorEvents)
            .where(inArray(operatorEvents.id, doomed))
            .returning({ id: operatorEvents.id });
          return rows.length;
        });
  return { nonces, sessions: ended, events, operatorEvents: operator };
}

/** What {@link startExpirySweep} runs and how often. */
export interface ExpirySweepOptions {
  /** One sweep, e.g. `() => sweepExpired(db, new Date())`. */
  sweep: () => Promise<SweepCounts>;
  /** Pause between the end of one sweep and the start of the next (SWEEP_INTERVAL_MS). */
  intervalMs: number;
  logger: SweepLogger;
}

/** The two log levels the sweep writes (a pino logger is one). */
export interface SweepLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/** A running sweep. */
export interface ExpirySweep {
  /** Cancels the next sweep and waits for a running one to end. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Runs `sweep` every `intervalMs`, each run after the previous one ended (never two at once), on an
 * unref'd timer so it never keeps the process alive. A failed sweep (database down) logs a warning
 * without SQL and the next one tries again.
 */
export function startExpirySweep({ sweep, intervalMs, logger }: ExpirySweepOptions): ExpirySweep {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(run, intervalMs);
    timer.unref();
  }

  function run(): void {
    timer = undefined;
    running = sweep().then(
      (counts) => {
        if (
          counts.nonces > 0 ||
          counts.sessions > 0 ||
          counts.events > 0 ||
          (counts.webhookMessages ?? 0) > 0 ||
          (counts.expiryNotices ?? 0) > 0
        )
          logger.info(counts, "expired rows deleted, expiry notices enqueued");
      },
      (error: unknown) => logger.warn({ err: errorSummary(error) }, "expired-row sweep failed; will retry"),
    );
    running.finally(() => {
      running = undefined;
      schedule();
    });
  }

  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
