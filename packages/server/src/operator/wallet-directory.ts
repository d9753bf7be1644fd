import { and, asc, count, desc, eq, gt, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys, sessions, type WalletRow, wallets } from "../db/schema/index.js";
import { statusCondition } from "../keys/status-condition.js";
import type { OperatorWalletView, WalletSort } from "../schemas/operator-wallets.js";
import { encodeWalletCursor, type WalletCursor } from "./wallet-cursor.js";

export interface ListWalletsParams {
  /** The start of an address, any case, with or without `0x`; empty or absent: every wallet. */
  q?: string | undefined;
  sort: WalletSort;
  limit: number;
  /** Of the same sort (the service checks). */
  cursor: WalletCursor | null;
  now: Date;
}

/** A wallet's active keys now, counted per row of the wallet list (served by api_keys' wallet index). */
function activeKeysOf(now: Date): SQL<number> {
  return sql<number>`(select count(*)::int from ${apiKeys} where ${apiKeys.wallet} = ${wallets.address} and ${statusCondition("active", now)})`;
}

/** Addresses are stored EIP-55 checksummed: the search compares lower case, digits after `0x`. */
function searchCondition(q: string | undefined): SQL | undefined {
  const digits = (q ?? "").toLowerCase().replace(/^0x/, "");
  if (digits === "") return undefined;
  // Hex digits only (the input schema's rule), so the pattern holds no LIKE wildcard.
  return sql`lower(${wallets.address}) like ${`0x${digits}%`}`;
}

function afterCursor(cursor: WalletCursor | null, activeKeys: SQL<number>): SQL | undefined {
  if (cursor === null) return undefined;
  if (cursor.sort === "lastActive") {
    return or(
      lt(wallets.lastActiveAt, cursor.value),
      and(eq(wallets.lastActiveAt, cursor.value), gt(wallets.address, cursor.address)),
    );
  }
  return or(
    sql`${activeKeys} < ${cursor.value}`,
    and(sql`${activeKeys} = ${cursor.value}`, gt(wallets.address, cursor.address)),
  );
}

function walletView(row: WalletRow, activeKeys: number): OperatorWalletView {
  return {
    address: row.address,
    createdAt: row.createdAt,
    lastSignInAt: row.lastSignInAt,
    lastActiveAt: row.lastActiveAt,
    activeKeys,
    suspended: row.suspendedAt === null ? null : { at: row.suspendedAt, reason: row.suspendedReason ?? "" },
  };
}

/**
 * One page of every wallet the deployment knows, most recently active first (or most active keys
 * first), ties by address, with the next page's cursor (null at the end).
 */
export async function listWallets(db: Db, params: ListWalletsParams) {
  const activeKeys = activeKeysOf(params.now);
  const order =
    params.sort === "lastActive"
      ? [desc(wallets.lastActiveAt), asc(wallets.address)]
      : [desc(activeKeys), asc(wallets.address)];
  const rows = await db
    .select({ wallet: wallets, activeKeys })
    .from(wallets)
    .where(and(searchCondition(params.q), afterCursor(params.cursor, activeKeys)))
    .orderBy(...order)
    .limit(params.limit + 1);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  let next: string | null = null;
  if (rows.length > params.limit && last) {
    next = encodeWalletCursor(
      params.sort === "lastActive"
        ? { sort: "lastActive", value: last.wallet.lastActiveAt, address: last.wallet.address }
        : { sort: "activeKeys", value: last.activeKeys, address: last.wallet.address },
    );
  }
  return { wallets: page.map((row) => walletView(row.wallet, row.activeKeys)), nextCursor: next };
}

/** One wallet with its key counts and live sessions, or null when the deployment does not know it. */
export async function getWallet(db: Db, address: string, now: Date) {
  const [found] = await db.select().from(wallets).where(eq(wallets.address, address));
  if (!found) return null;
  const [[keys], [live]] = await Promise.all([
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${statusCondition("active", now)})::int`,
      })
      .from(apiKeys)
      .where(eq(apiKeys.wallet, address)),
    db
      .select({ live: count() })
      .from(sessions)
      .where(and(eq(sessions.wallet, address), isNull(sessions.revokedAt), gt(sessions.expiresAt, now))),
  ]);
  const active = keys?.active ?? 0;
  return {
    wallet: walletView(found, active),
    keys: { total: keys?.total ?? 0, active },
    sessions: live?.live ?? 0,
  };
}
