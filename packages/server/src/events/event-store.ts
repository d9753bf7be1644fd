import type { Db } from "../db/database.js";
import type { KeyEvent } from "../schemas/key-event.js";
import { KEY_EVENT_ACTIONS, type KeyEventAction } from "../schemas/key-event.js";
import { listEvents } from "./list.js";

function isAction(value: string): value is KeyEventAction {
  return KEY_EVENT_ACTIONS.some((action) => action === value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type EventRow = Awaited<ReturnType<typeof listEvents>>["rows"][number];

/** The public shape of a stored event; a row the table's constraints should have refused throws. */
function toKeyEvent(row: EventRow): KeyEvent {
  if (!isAction(row.action) || !isObject(row.changes)) throw new Error(`malformed key event ${row.id}`);
  return { id: String(row.id), action: row.action, keyId: row.keyId, at: row.at, changes: row.changes };
}

/** The audit trail as procedures read it: public shapes out, no SQL. */
export interface EventStore {
  /** One page of a wallet's events, newest first, and the cursor of the next page (null at the end). */
  list(params: {
    wallet: string;
    limit: number;
    before: number | null;
    keyId?: string | null;
    action?: KeyEventAction | null;
  }): Promise<{
    events: KeyEvent[];
    nextCursor: string | null;
  }>;
}

/** The event store over the database (events are written by the changes themselves: see record-event.ts). */
export function createEventStore(db: Db): EventStore {
  return {
    async list(params) {
      const page = await listEvents(db, params);
      return {
        events: page.rows.map(toKeyEvent),
        nextCursor: page.nextCursor,
      };
    },
  };
}
