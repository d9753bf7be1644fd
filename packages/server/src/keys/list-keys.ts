import { and, desc, eq, lt, or } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type ApiKeyRow, apiKeys } from "../db/schema/index.js";
import { encodeCursor, type PageCursor } from "./cursor.js";
import { selectFirstPage } from "./first-page.js";
import { type StatusFilter, statusCondition } from "./status-condition.js";

export interface ListKeysParams {
  wallet: string;
  status: StatusFilter;
  limit: number;
  cursor: PageCursor | null;
  now: Date;
}

function selectAfterCursor(db: Db, params: ListKeysParams, cursor: PageCursor): Promise<ApiKeyRow[]> {
  const after = or(
    lt(apiKeys.createdAt, cursor.createdAt),
    and(eq(apiKeys.createdAt, cursor.createdAt), lt(apiKeys.id, cursor.id)),
  );
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.wallet, params.wallet), statusCondition(params.status, params.now), after))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(params.limit + 1);
}

/** One page of a wallet's keys, newest first, with the cursor of the next page (null at the end). */
export async function listKeys(db: Db, params: ListKeysParams) {
  // One row past the page tells whether another page follows.
  const rows = params.cursor
    ? await selectAfterCursor(db, params, params.cursor)
    : await selectFirstPage(db, params.wallet, params.status, params.limit + 1, params.now);
  return pageOf(rows, params.limit);
}

/** The first `limit` of `rows` (read with one row more), and the next page's cursor (null at the end). */
export function pageOf(rows: ApiKeyRow[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor(last) : null;
  return { rows: page, nextCursor };
}
