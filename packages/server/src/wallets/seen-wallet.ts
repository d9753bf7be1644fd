import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { wallets } from "../db/schema/index.js";

/** What {@link seenWalletSql} records: SQL values (parameters or placeholders) with their casts. */
export interface SeenWallet {
  /** The wallet, EIP-55 (`::text`). */
  wallet: SQL;
  /** When it was active (`::timestamptz`). */
  at: SQL;
  /** A sign-in: `last_sign_in_at` becomes `at` too. */
  signedIn: boolean;
  /** A CTE of the same statement: the wallet is recorded once for each row it yields (none: none). */
  from?: SQLWrapper;
}

/**
 * `insert into wallets ... on conflict do update`: records that a wallet was active (signed in, made a
 * key), adding it to the operator's wallet list the first time (docs/operator.md#wallets). Meant as a
 * CTE of the statement making the change (a session, a key), so neither commits alone.
 * @example sql`with s as (insert into sessions ...), w as (${seenWalletSql({ wallet, at, signedIn: true })}) ...`
 */
export function seenWalletSql({ wallet, at, signedIn, from }: SeenWallet): SQL {
  const source = from === undefined ? sql`` : sql` from ${from}`;
  return sql`insert into ${wallets} (address, created_at, last_sign_in_at, last_active_at)
    select ${wallet}, ${at}, ${signedIn ? at : sql`null::timestamptz`}, ${at}${source}
    on conflict (address) do update set
      last_active_at = greatest(${wallets.lastActiveAt}, excluded.last_active_at),
      last_sign_in_at = coalesce(excluded.last_sign_in_at, ${wallets.lastSignInAt})`;
}
