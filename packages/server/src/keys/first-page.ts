import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { preparePerDatabase } from "../db/prepared.js";
import { type ApiKeyRow, apiKeys } from "../db/schema/index.js";
import { type StatusFilter, statusCondition } from "./status-condition.js";

function prepareFirstPage(db: Db, status: StatusFilter) {
  return db
    .select()
    .from(apiKeys)
    .where(
      and(eq(apiKeys.wallet, sql.placeholder("wallet")), statusCondition(status, sql.placeholder("now"))),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(sql.placeholder("take"))
    .prepare(`keys_first_page_${status}`);
}

// Listing without a cursor is the common request: one prepared statement per status.
const firstPages: Record<StatusFilter, (db: Db) => ReturnType<typeof prepareFirstPage>> = {
  all: preparePerDatabase((db) => prepareFirstPage(db, "all")),
  active: preparePerDatabase((db) => prepareFirstPage(db, "active")),
  revoked: preparePerDatabase((db) => prepareFirstPage(db, "revoked")),
  expired: preparePerDatabase((db) => prepareFirstPage(db, "expired")),
};

/**
 * The newest `take` keys of a wallet with this status, newest first (ties broken by id, descending).
 * @example const rows = await selectFirstPage(db, wallet, "all", 21, new Date());
 */
export async function selectFirstPage(
  db: Db,
  wallet: string,
  status: StatusFilter,
  take: number,
  now: Date,
): Promise<ApiKeyRow[]> {
  return firstPages[status](db).execute({ wallet, take, now: now.toISOString() });
}
