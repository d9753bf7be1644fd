import type { RawQuery } from "../db/raw.js";
import type { ClaimedDelivery } from "./claim.js";
import type { AttemptResult } from "./send.js";

/** One succeeded attempt waiting to be recorded. */
interface Success {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  at: Date;
  done: { resolve: () => void; reject: (error: unknown) => void };
}

/** Records succeeded attempts, many in one statement. */
export interface SuccessRecorder {
  /** Resolves when the success is recorded (or rejects with the statement's error). */
  record(delivery: ClaimedDelivery, result: AttemptResult, at: Date): Promise<void>;
}

// At most this many successes in one statement.
const MAX_BATCH = 256;

// Every parameter is text[] (cast in SQL): postgres.js serialises only text arrays without a type it knows.
// What settle.ts's success update does, for a whole batch: only the claim that made an attempt may
// record it (same id, still pending, same attempts), so a late answer after a lapsed lease is dropped.
const SUCCEEDED_SQL = `update webhook_deliveries d set status = 'succeeded', next_attempt_at = null,
  last_attempt_at = v.at, last_status_code = v.code, last_duration_ms = v.ms, last_response = v.response
from unnest($1::text[]::bigint[], $2::text[]::int[], $3::text[]::timestamptz[], $4::text[]::int[], $5::text[]::int[], $6::text[])
  as v(id, attempts, at, code, ms, response)
where d.id = v.id and d.status = 'pending' and d.attempts = v.attempts`;

// A 2xx ends the endpoint's failing streak (docs/webhooks.md, "Fairness"). A statement of its own,
// after the deliveries': one holding both rows' locks could deadlock with an endpoint's delete.
const RECOVERED_SQL = `update webhooks set failing_since = null
where id = any($1::text[]) and failing_since is not null`;

/**
 * Successes are by far the most common settlement: under a backlog each send would otherwise wait
 * for an update of its own. One statement is under way at a time; the successes that finish
 * meanwhile go together in the next one, so a lone success is written at once and a busy dispatcher
 * writes one statement per batch (docs/webhooks.md, "Delivery").
 */
export function createSuccessRecorder(query: RawQuery): SuccessRecorder {
  let queued: Success[] = [];
  let writing = false;

  function flush(): void {
    if (writing || queued.length === 0) return;
    const batch = queued.slice(0, MAX_BATCH);
    queued = queued.slice(batch.length);
    writing = true;
    query(SUCCEEDED_SQL, [
      batch.map((s) => s.delivery.id),
      batch.map((s) => String(s.delivery.attempts)),
      batch.map((s) => s.at.toISOString()),
      batch.map((s) => String(s.result.statusCode ?? 0)),
      batch.map((s) => String(s.result.durationMs)),
      batch.map((s) => s.result.response ?? ""),
    ])
      .then(() => query(RECOVERED_SQL, [[...new Set(batch.map((s) => s.delivery.webhook_id))]]))
      .then(
        () => {
          for (const success of batch) success.done.resolve();
        },
        (error: unknown) => {
          for (const success of batch) success.done.reject(error);
        },
      )
      .finally(() => {
        writing = false;
        flush();
      });
  }

  return {
    record(delivery, result, at) {
      return new Promise<void>((resolve, reject) => {
        queued.push({ delivery, result, at, done: { resolve, reject } });
        flush();
      });
    },
  };
}
