import { and, count, eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type ApiKeyRow, apiKeys } from "../db/schema/index.js";
import { encodeCursor, type PageCursor } from "./cursor.js";
import { selectFirstPage } from "./first-page.js";
import { searchCondition } from "./key-search.js";
import { afterCursor, cursorAfter, type KeySort, orderOf, type SortOrder } from "./list-order.js";
import { type StatusFilter, statusCondition } from "./status-condition.js";

export interface ListKeysParams {
  wallet: string;
  status: StatusFilter;
  /** Search: a substring of the name (any case) or a prefix of the start; empty or absent: every key. */
  q?: string;
  sort?: KeySort;
  order?: SortOrder;
  limit: number;
  /** Must be of the same sort and order (the procedure checks). */
  cursor: PageCursor | null;
  now: Date;
}

function matching(params: ListKeysParams) {
  return and(
    eq(apiKeys.wallet, params.wallet),
    statusCondition(params.status, params.now),
    searchCondition(params.q),
  );
}

function selectPage(db: Db, params: ListKeysParams, sort: KeySort, order: SortOrder): Promise<ApiKeyRow[]> {
  const after = params.cursor === null ? undefined : afterCursor(params.cursor);
  return db
    .select()
    .from(apiKeys)
    .where(and(matching(params), after))
    .orderBy(...orderOf(sort, order))
    .limit(params.limit + 1);
}

/** How many keys match wallet, status and search, whatever the page. */
async function countMatching(db: Db, params: ListKeysParams): Promise<number> {
  const [row] = await db.select({ total: count() }).from(apiKeys).where(matching(params));
  return row?.total ?? 0;
}

/**
 * One page of a wallet's keys in the asked sort (newest first by default), the cursor of the next
 * page (null at the end), and how many keys match in all.
 */
export async function listKeys(db: Db, params: ListKeysParams) {
  const sort = params.sort ?? "created";
  const order = params.order ?? "desc";
  // The default first page is the common request: its statement is prepared (first-page.ts).
  const isDefault = sort === "created" && order === "desc" && !params.q && params.cursor === null;
  // One row past the page tells whether another page follows.
  const [rows, total] = await Promise.all([
    isDefault
      ? selectFirstPage(db, params.wallet, params.status, params.limit + 1, params.now)
      : selectPage(db, params, sort, order),
    countMatching(db, params),
  ]);
  return { ...pageOf(rows, params.limit, sort, order), total };
}

/** The first `limit` of `rows` (read with one row more), and the next page's cursor (null at the end). */
export function pageOf(
  rows: ApiKeyRow[],
  limit: number,
  sort: KeySort = "created",
  order: SortOrder = "desc",
) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor(cursorAfter(last, sort, order)) : null;
  return { rows: page, nextCursor };
}
