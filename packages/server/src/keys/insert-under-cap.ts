import { and, eq, fillPlaceholders, getTableName, type Query, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
import postgres from "postgres";
import type { Driver } from "../db/database.js";
import { apiKeys, keyCredits, keyEvents, operatorEvents, walletActiveKeys } from "../db/schema/index.js";
import { INVALIDATION_CHANNEL } from "../verify/invalidation.js";
import { seenWalletSql } from "../wallets/seen-wallet.js";
import { outboxCtes } from "../webhooks/outbox-ctes.js";
import { statusCondition } from "./status-condition.js";

/** The values of one create, as the statement's placeholders take them (timestamps as ISO text). */
export interface InsertUnderCapValues {
  id: string;
  wallet: string;
  name: string;
  hash: string;
  start: string;
  /** ISO time of the create: the key's `created_at`, the event's `at`, the moment "active" is judged at. */
  now: string;
  expiresAt: string | null;
  /** JSON array of the key's named limits. */
  rateLimits: string;
  /** JSON array of the permission strings. */
  permissions: string;
  /** JSON of the meta object, or null. */
  meta: string | null;
  /** JSON array of the normalised allowedIps, or null for any address. */
  allowedIps: string | null;
  /** The key's own credit balance (named by the key's id), or null for a key without credits. */
  credits: {
    remaining: number;
    refillInterval: string | null;
    refillAmount: number | null;
    refilledAt: string | null;
  } | null;
  /** JSON of the `key.created` event's changes. */
  changes: string;
  /** The `key.created` webhook: its message id and the JSON of its whole body (docs/webhooks.md). */
  webhook: { messageId: string; payload: string };
  /** An operator's issue (docs/operator.md#keys): its actor (JSON) and reason, recorded in its trail; null: the wallet's own create. */
  operatorEvent: { actor: string; reason: string | null } | null;
  maxActiveKeys: number;
}

const p = (name: string) => sql.placeholder(name);

function columnList(columns: ReadonlyArray<{ name: string }>): SQL {
  return sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}

function insertInto(table: PgTable, columns: ReadonlyArray<{ name: string }>, select: SQL): SQL {
  return sql`insert into ${table} (${columnList(columns)}) ${select}`;
}

function creditsInsert(from: string): SQL {
  return insertInto(
    keyCredits,
    [
      keyCredits.id,
      keyCredits.remaining,
      keyCredits.refillInterval,
      keyCredits.refillAmount,
      keyCredits.refilledAt,
    ],
    sql`select ${p("creditsId")}::text, ${p("remaining")}::bigint, ${p("refillInterval")}::text, ${p("refillAmount")}::bigint, ${p("refilledAt")}::timestamptz from ${sql.identifier(from)} where ${p("creditsId")}::text is not null`,
  );
}

function keyInsert(from: string): SQL {
  return insertInto(
    apiKeys,
    [
      apiKeys.id,
      apiKeys.wallet,
      apiKeys.name,
      apiKeys.hash,
      apiKeys.start,
      apiKeys.createdAt,
      apiKeys.expiresAt,
      apiKeys.rateLimits,
      apiKeys.permissions,
      apiKeys.meta,
      apiKeys.creditsId,
      apiKeys.allowedIps,
      apiKeys.issuedByOperator,
    ],
    // The permissions arrive as a JSON array: the two drivers encode array parameters differently.
    sql`select ${p("id")}::text, ${p("wallet")}::text, ${p("name")}::text, ${p("hash")}::text, ${p("start")}::text, ${p("now")}::timestamptz, ${p("expiresAt")}::timestamptz, ${p("rateLimits")}::jsonb, (select coalesce(array_agg(e order by i), '{}') from jsonb_array_elements_text(${p("permissions")}::jsonb) with ordinality as t(e, i))::text[], ${p("meta")}::jsonb, ${p("creditsId")}::text, (select array_agg(e order by i) from jsonb_array_elements_text(${p("allowedIps")}::jsonb) with ordinality as t(e, i))::text[], ${p("operatorActor")}::text is not null from ${sql.identifier(from)}`,
  );
}

/**
 * The balance (when the key has one), the key, its `key.created` event, the wallet's last activity
 * (wallets/seen-wallet.ts), its webhook (for a wallet with a subscribed endpoint) and, for a key the
 * operator issued, the operator's `key.issued` event, once `gate` has a row.
 */
function inserts(gate: string): SQL {
  return sql`c as (${creditsInsert(gate)}), k as (${keyInsert(gate)} returning 1), o as (${insertInto(
    operatorEvents,
    [
      operatorEvents.actor,
      operatorEvents.action,
      operatorEvents.at,
      operatorEvents.wallet,
      operatorEvents.keyId,
      operatorEvents.reason,
    ],
    sql`select ${p("operatorActor")}::jsonb, 'key.issued', ${p("now")}::timestamptz, ${p("wallet")}::text, ${p("id")}::text, ${p("operatorReason")}::text from k where ${p("operatorActor")}::text is not null`,
  )}), e as (${insertInto(
    keyEvents,
    [keyEvents.wallet, keyEvents.keyId, keyEvents.action, keyEvents.at, keyEvents.changes],
    sql`select ${p("wallet")}::text, ${p("id")}::text, 'key.created', ${p("now")}::timestamptz, ${p("changes")}::jsonb from k`,
  )}), seen as (${seenWalletSql({ wallet: sql`${p("wallet")}::text`, at: sql`${p("now")}::timestamptz`, signedIn: false, from: sql.identifier("k") })}), ${outboxCtes(
    "key.created",
    { messageId: p("messageId"), wallet: p("wallet"), keyId: p("id"), payload: p("payload"), at: p("now") },
    "k",
  )}`;
}

const atMost = sql.identifier(walletActiveKeys.atMost.name);

/**
 * The statement's answer: one row when the key went in, whose `pg_notify` announces the new key's id
 * to every instance's invalidation bus when the statement commits (they forget unknown hashes: see
 * announce-key-changes.ts), without another round trip.
 */
const insertedAndAnnounced = sql`select 1 as inserted, pg_notify(${INVALIDATION_CHANNEL}, ${p("id")}::text)::text as announced from k`;

/**
 * The usual create, one statement: the wallet's bound goes up by one while it is below the cap
 * (a wallet's first key inserts its row), and only then do the balance, the key and its event go
 * in. `INSERT ... ON CONFLICT DO UPDATE` locks the wallet's row and judges the `WHERE` on its newest
 * version, also when a concurrent create committed after this statement's snapshot was taken, so
 * concurrent creates serialise on the row and cannot overshoot. All CTEs share one snapshot and
 * commit together; the key's foreign key to its balance is checked at the end of the statement.
 * Returns one row when the key went in, none when the bound is at the cap (the row stays as it was).
 * Casts: a bare parameter in a select list has no type PostgreSQL could infer.
 */
const boundedStatement = sql`with w as (insert into ${walletActiveKeys} (${columnList([
  walletActiveKeys.wallet,
  walletActiveKeys.atMost,
])}) values (${p("wallet")}::text, 1) on conflict (${sql.identifier(walletActiveKeys.wallet.name)}) do update set ${atMost} = ${walletActiveKeys.atMost} + 1 where ${walletActiveKeys.atMost} < ${p("maxActiveKeys")}::int returning 1), ${inserts("w")} ${insertedAndAnnounced}`;

/**
 * The create when the bound has reached the cap: the wallet's active keys are counted exactly, the
 * key goes in while they are fewer than the cap, and the bound becomes that count (plus the new
 * key). Run after the wallet's row is locked (on PostgreSQL) so the count sees every committed key.
 */
const countedStatement = sql`with n as (select count(*)::int as active from ${apiKeys} where ${and(
  eq(apiKeys.wallet, p("wallet")),
  statusCondition("active", p("now")),
)}), ok as (select 1 from n where active < ${p("maxActiveKeys")}::int), ${inserts("ok")}, u as (update ${walletActiveKeys} set ${atMost} = (select active from n) + (select count(*)::int from k) where ${walletActiveKeys.wallet} = ${p("wallet")}::text) ${insertedAndAnnounced}`;

const dialect = new PgDialect();
const bounded = dialect.sqlToQuery(boundedStatement);
const counted = dialect.sqlToQuery(countedStatement);

function parameters(query: Query, values: InsertUnderCapValues): Array<string | number | null> {
  const filled = fillPlaceholders(query.params, {
    ...values,
    messageId: values.webhook.messageId,
    payload: values.webhook.payload,
    creditsId: values.credits === null ? null : values.id,
    remaining: values.credits?.remaining ?? null,
    refillInterval: values.credits?.refillInterval ?? null,
    refillAmount: values.credits?.refillAmount ?? null,
    refilledAt: values.credits?.refilledAt ?? null,
    operatorActor: values.operatorEvent?.actor ?? null,
    operatorReason: values.operatorEvent?.reason ?? null,
  });
  return filled.map((value) => {
    if (value === null || typeof value === "string" || typeof value === "number") return value;
    throw new Error("insertUnderCap: a parameter is not text, a number or null");
  });
}

const LOCK_WALLET = `select 1 from "${getTableName(walletActiveKeys)}" where "${walletActiveKeys.wallet.name}" = $1 for update`;

/**
 * Inserts the key (with its balance and event) unless the wallet is at the cap; true when it went in.
 *
 * The usual create is the bounded statement alone: one statement on a pooled connection, so one
 * round trip that shares its writes with other requests' statements. Only when the wallet's bound
 * has reached the cap (a wallet at the cap, or one whose keys expired or were revoked since the
 * bound was last counted) does the counted statement run:
 * - PostgreSQL: `BEGIN`, the lock on the wallet's row, the counted statement and `COMMIT` leave
 *   together on one reserved connection (pipelined: one more round trip). Under READ COMMITTED the
 *   counted statement's snapshot is taken once the lock is held, so it counts every key committed
 *   by a create, roll or update that held the lock before. If a statement fails, the ones after it
 *   fail too and `COMMIT` rolls back. The lock cannot go into the statement: its snapshot would
 *   predate the lock.
 * - PGlite: the counted statement alone. PGlite is one backend that runs one statement at a time,
 *   so nothing can commit between its count and its insert.
 */
export async function insertUnderCap(driver: Driver, values: InsertUnderCapValues): Promise<boolean> {
  if (driver.kind === "pglite") {
    const first = await driver.client.query(bounded.sql, parameters(bounded, values));
    if (first.rows.length > 0) return true;
    const second = await driver.client.query(counted.sql, parameters(counted, values));
    return second.rows.length > 0;
  }
  const first = await driver.client.unsafe(bounded.sql, parameters(bounded, values), { prepare: true });
  if (first.length > 0) return true;
  const connection = await driver.client.reserve();
  const sent = [
    connection.unsafe("begin"),
    connection.unsafe(LOCK_WALLET, [values.wallet], { prepare: true }),
    connection.unsafe(counted.sql, parameters(counted, values), { prepare: true }),
    connection.unsafe("commit"),
  ];
  const settled = await Promise.allSettled(sent);
  const failure = settled.find((outcome) => outcome.status === "rejected");
  // A server error leaves the connection idle (COMMIT turned into ROLLBACK): give it back. Any other
  // error closed it, and postgres.js has already moved it out of the pool's open connections.
  if (failure === undefined || failure.reason instanceof postgres.PostgresError) connection.release();
  if (failure !== undefined) throw failure.reason;
  const inserted = settled[2];
  return inserted?.status === "fulfilled" && inserted.value.length > 0;
}
