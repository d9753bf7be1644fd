import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { preparePerDatabase } from "../db/prepared.js";
import { type ApiKeyRow, apiKeys, sessions } from "../db/schema/index.js";
import { hashKey } from "./secret.js";
import { type StatusFilter, statusCondition } from "./status-condition.js";

// The session check of `sessionProcedure` (auth/session.ts), as a condition on the wallet's keys.
const liveSessionOfWallet = sql`exists (${sql`select 1 from ${sessions} where ${and(
  eq(sessions.tokenHash, sql.placeholder("hash")),
  eq(sessions.wallet, sql.placeholder("wallet")),
  isNull(sessions.revokedAt),
  gt(sessions.expiresAt, sql.placeholder("now")),
)}`})`;

// Evaluated before LIMIT: every key matching wallet and status, counted in the same statement.
const matchingTotal = sql<number>`count(*) over ()`.mapWith(Number);

function prepareSessionFirstPage(db: Db, status: StatusFilter) {
  return db
    .select({ key: apiKeys, total: matchingTotal })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.wallet, sql.placeholder("wallet")),
        statusCondition(status, sql.placeholder("now")),
        liveSessionOfWallet,
      ),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(sql.placeholder("take"))
    .prepare(`keys_session_first_page_${status}`);
}

const sessionFirstPages: Record<StatusFilter, (db: Db) => ReturnType<typeof prepareSessionFirstPage>> = {
  all: preparePerDatabase((db) => prepareSessionFirstPage(db, "all")),
  active: preparePerDatabase((db) => prepareSessionFirstPage(db, "active")),
  revoked: preparePerDatabase((db) => prepareSessionFirstPage(db, "revoked")),
  expired: preparePerDatabase((db) => prepareSessionFirstPage(db, "expired")),
};

/**
 * The first page of `selectFirstPage` and how many keys match in all, read only while `token` is a
 * live session of `wallet`: the session lookup, the list and its total in one round trip. Null both
 * when the session is not (unknown, ended, expired, another wallet's) and when the wallet has no
 * such keys; the caller tells them apart the slow way (docs/benchmarks.md#keys-list-in-one-round-trip).
 * @example const first = await selectSessionFirstPage(db, token, wallet, "all", 21, new Date());
 */
export async function selectSessionFirstPage(
  db: Db,
  token: string,
  wallet: string,
  status: StatusFilter,
  take: number,
  now: Date,
): Promise<{ rows: ApiKeyRow[]; total: number } | null> {
  const hash = hashKey(token);
  const found = await sessionFirstPages[status](db).execute({ hash, wallet, take, now: now.toISOString() });
  const first = found[0];
  if (first === undefined) return null;
  return { rows: found.map((row) => row.key), total: first.total };
}
