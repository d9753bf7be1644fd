import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
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

type FirstPage = ReturnType<typeof prepareFirstPage>;

// Listing without a cursor is the common request: one statement per status, prepared once per
// database, skips drizzle's SQL building per call (and lets the driver reuse the server-side plan).
const firstPages = new WeakMap<Db, Map<StatusFilter, FirstPage>>();

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
  let byStatus = firstPages.get(db);
  if (!byStatus) {
    byStatus = new Map();
    firstPages.set(db, byStatus);
  }
  let prepared = byStatus.get(status);
  if (!prepared) {
    prepared = prepareFirstPage(db, status);
    byStatus.set(status, prepared);
  }
  // Placeholder values bypass the column's encoder, and drizzle's postgres.js setup sends
  // timestamps as text: an ISO string works on both drivers, a Date does not.
  return prepared.execute({ wallet, take, now: now.toISOString() });
}
