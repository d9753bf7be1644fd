import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type OperatorEventRow, operatorEvents } from "../db/schema/index.js";
import type { EventChanges } from "../events/changes.js";
import { encodeEventCursor } from "../events/cursor.js";
import {
  type OperatorAction,
  type OperatorActor,
  type OperatorEventView,
  operatorAction,
} from "../schemas/operator.js";

/** One operator action to record (docs/operator.md#audit). */
export interface NewOperatorEvent {
  actor: OperatorActor;
  action: OperatorAction;
  at: Date;
  wallet?: string | null;
  keyId?: string | null;
  reason?: string | null;
  /** Public values only (never a secret, token or hash), as the wallets' trail. */
  changes?: EventChanges;
}

/**
 * Records an operator action with `db`, which should be the transaction making the change, so the
 * change never commits without its event.
 */
export async function recordOperatorEvent(db: Pick<Db, "insert">, event: NewOperatorEvent): Promise<void> {
  await db.insert(operatorEvents).values({
    actor: event.actor,
    action: event.action,
    at: event.at,
    wallet: event.wallet ?? null,
    keyId: event.keyId ?? null,
    reason: event.reason ?? null,
    changes: event.changes ?? {},
  });
}

export interface ListOperatorEventsParams {
  limit: number;
  /** Events older than this id (a decoded cursor); null for the first page. */
  before: number | null;
  /** Only the actions taken on this wallet. */
  wallet?: string | undefined;
}

/** One page of the operator trail, newest first, with the next page's cursor (null at the end). */
export async function listOperatorEvents(db: Db, params: ListOperatorEventsParams) {
  const conditions: SQL[] = [];
  if (params.before !== null) conditions.push(lt(operatorEvents.id, params.before));
  if (params.wallet !== undefined) conditions.push(eq(operatorEvents.wallet, params.wallet));
  const rows = await db
    .select()
    .from(operatorEvents)
    .where(and(...conditions))
    .orderBy(desc(operatorEvents.id))
    .limit(params.limit + 1);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  return {
    events: page.map(operatorEventView),
    nextCursor: rows.length > params.limit && last ? encodeEventCursor(last.id) : null,
  };
}

function operatorEventView(row: OperatorEventRow): OperatorEventView {
  const changes = row.changes;
  return {
    id: String(row.id),
    at: row.at,
    actor: row.actor,
    action: operatorAction.parse(row.action),
    wallet: row.wallet,
    keyId: row.keyId,
    reason: row.reason,
    changes: typeof changes === "object" && changes !== null && !Array.isArray(changes) ? { ...changes } : {},
  };
}
