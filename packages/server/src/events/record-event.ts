import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { keyEvents } from "../db/schema/index.js";
import type { KeyEventAction } from "../schemas/key-event.js";
import type { EventChanges } from "./changes.js";

/** One audit event to record: who (wallet), which key (null for sessions), what, when, what changed. */
export interface NewKeyEvent {
  wallet: string;
  keyId: string | null;
  action: KeyEventAction;
  at: Date;
  /** Field names and their new public values (see changes.ts): never a secret, hash or token. */
  changes: EventChanges;
}

/**
 * Records one event with `db`, which should be the transaction making the change, so the change
 * never commits without its event and a change that rolls back leaves none. For `key.updated`
 * and anything else that changes a key inside a transaction.
 * @example await changes.transaction(db, async (tx) => { ...update...; await recordEvent(tx, event); });
 */
export async function recordEvent(db: Pick<Db, "insert">, event: NewKeyEvent): Promise<void> {
  await db.insert(keyEvents).values(event);
}

const columns = sql.join(
  [keyEvents.wallet, keyEvents.keyId, keyEvents.action, keyEvents.at, keyEvents.changes].map((column) =>
    sql.identifier(column.name),
  ),
  sql`, `,
);

/**
 * `insert into key_events ... select ...` recording `event` once for each row `from` yields (a CTE
 * of the same statement: the change it describes), or once when `from` is left out. One statement
 * carries the change and its event, so neither commits without the other, without a transaction.
 * @example sql`with s as (update sessions ... returning 1) ${insertEventSql(event, sql.identifier("s"))}`
 */
export function insertEventSql(event: NewKeyEvent, from?: SQLWrapper): SQL {
  // Casts: a bare parameter in a select list has no type PostgreSQL could infer.
  const values = sql`${event.wallet}::text, ${event.keyId}::text, ${event.action}::text, ${event.at.toISOString()}::timestamptz, ${JSON.stringify(event.changes)}::jsonb`;
  const source = from === undefined ? sql`` : sql` from ${from}`;
  return sql`insert into ${keyEvents} (${columns}) select ${values}${source}`;
}
