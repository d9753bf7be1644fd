import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { preparePerDatabase } from "../db/prepared.js";
import { keyEvents } from "../db/schema/index.js";
import { encodeEventCursor } from "./cursor.js";

// Every page, the first one included (below the largest id there can be), is this one statement; a
// filter left out is a null placeholder, so filtered and unfiltered pages share it too.
const page = preparePerDatabase((db) =>
  db
    .select()
    .from(keyEvents)
    .where(
      and(
        eq(keyEvents.wallet, sql.placeholder("wallet")),
        lt(keyEvents.id, sql.placeholder("before")),
        sql`(${sql.placeholder("keyId")}::text is null or ${keyEvents.keyId} = ${sql.placeholder("keyId")})`,
        sql`(${sql.placeholder("action")}::text is null or ${keyEvents.action} = ${sql.placeholder("action")})`,
      ),
    )
    .orderBy(desc(keyEvents.id))
    .limit(sql.placeholder("take"))
    .prepare("key_events_page"),
);

export interface ListEventsParams {
  wallet: string;
  limit: number;
  /** List events older than this id (a decoded cursor); null for the first page. */
  before: number | null;
  /** Only this key's events; null or absent for all. */
  keyId?: string | null;
  /** Only events of this action; null or absent for all. */
  action?: string | null;
}

/** One page of a wallet's events, newest first, with the cursor of the next page (null at the end). */
export async function listEvents(db: Db, params: ListEventsParams) {
  // One row past the page tells whether another page follows.
  const rows = await page(db).execute({
    wallet: params.wallet,
    before: params.before ?? Number.MAX_SAFE_INTEGER,
    take: params.limit + 1,
    keyId: params.keyId ?? null,
    action: params.action ?? null,
  });
  const events = rows.slice(0, params.limit);
  const last = events.at(-1);
  return { rows: events, nextCursor: rows.length > params.limit && last ? encodeEventCursor(last.id) : null };
}
