import { and, eq, fillPlaceholders, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
import postgres from "postgres";
import type { Driver } from "../db/database.js";
import { apiKeys, keyCredits, keyEvents } from "../db/schema/index.js";
import { statusCondition } from "./status-condition.js";

/** The advisory-lock key of a wallet: everything that adds to its active keys takes this lock. */
export function walletLockKey(wallet: string): string {
  return `keyport:wallet:${wallet}`;
}

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
  rateLimitLimit: number | null;
  rateLimitWindowSeconds: number | null;
  /** JSON array of the permission strings. */
  permissions: string;
  /** JSON of the meta object, or null. */
  meta: string | null;
  /** The key's own credit balance (named by the key's id), or null for a key without credits. */
  credits: {
    remaining: number;
    refillInterval: string | null;
    refillAmount: number | null;
    refilledAt: string | null;
  } | null;
  /** JSON of the `key.created` event's changes. */
  changes: string;
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

/**
 * One statement: the wallet's active keys are counted once, and only while they are fewer than the
 * cap do the key's credit balance (when it has one), the key and its `key.created` event go in. All
 * CTEs share one snapshot, so the three inserts happen together or not at all; the key's foreign
 * key to its balance is checked at the end of the statement, once both rows exist. Returns one row
 * when the key went in, none at the cap. Casts: a bare parameter in a select list has no type
 * PostgreSQL could infer.
 */
const statement = sql`with ok as (select 1 where (select count(*) from ${apiKeys} where ${and(
  eq(apiKeys.wallet, p("wallet")),
  statusCondition("active", p("now")),
)}) < ${p("maxActiveKeys")}::int), c as (${insertInto(
  keyCredits,
  [
    keyCredits.id,
    keyCredits.remaining,
    keyCredits.refillInterval,
    keyCredits.refillAmount,
    keyCredits.refilledAt,
  ],
  sql`select ${p("creditsId")}::text, ${p("remaining")}::int, ${p("refillInterval")}::text, ${p("refillAmount")}::int, ${p("refilledAt")}::timestamptz from ok where ${p("creditsId")}::text is not null`,
)}), k as (${insertInto(
  apiKeys,
  [
    apiKeys.id,
    apiKeys.wallet,
    apiKeys.name,
    apiKeys.hash,
    apiKeys.start,
    apiKeys.createdAt,
    apiKeys.expiresAt,
    apiKeys.rateLimitLimit,
    apiKeys.rateLimitWindowSeconds,
    apiKeys.permissions,
    apiKeys.meta,
    apiKeys.creditsId,
  ],
  // The permissions arrive as a JSON array: the two drivers encode array parameters differently.
  sql`select ${p("id")}::text, ${p("wallet")}::text, ${p("name")}::text, ${p("hash")}::text, ${p("start")}::text, ${p("now")}::timestamptz, ${p("expiresAt")}::timestamptz, ${p("rateLimitLimit")}::int, ${p("rateLimitWindowSeconds")}::int, (select coalesce(array_agg(e order by i), '{}') from jsonb_array_elements_text(${p("permissions")}::jsonb) with ordinality as t(e, i))::text[], ${p("meta")}::jsonb, ${p("creditsId")}::text from ok`,
)} returning 1), e as (${insertInto(
  keyEvents,
  [keyEvents.wallet, keyEvents.keyId, keyEvents.action, keyEvents.at, keyEvents.changes],
  sql`select ${p("wallet")}::text, ${p("id")}::text, 'key.created', ${p("now")}::timestamptz, ${p("changes")}::jsonb from k`,
)}) select 1 as inserted from k`;

const query = new PgDialect().sqlToQuery(statement);

function parameters(values: InsertUnderCapValues): Array<string | number | null> {
  const filled = fillPlaceholders(query.params, {
    ...values,
    creditsId: values.credits === null ? null : values.id,
    remaining: values.credits?.remaining ?? null,
    refillInterval: values.credits?.refillInterval ?? null,
    refillAmount: values.credits?.refillAmount ?? null,
    refilledAt: values.credits?.refilledAt ?? null,
  });
  return filled.map((value) => {
    if (value === null || typeof value === "string" || typeof value === "number") return value;
    throw new Error("insertUnderCap: a parameter is not text, a number or null");
  });
}

const LOCK = "select pg_advisory_xact_lock(hashtext($1))";

/**
 * Inserts the key (with its balance and event) unless the wallet is at the cap; true when it went in.
 *
 * - PostgreSQL: `BEGIN`, the wallet's advisory lock, the statement and `COMMIT` leave together on
 *   one reserved connection (pipelined: one round trip). PostgreSQL runs them in order, and under
 *   READ COMMITTED the statement's snapshot, and so its count, is taken once the lock is held, so
 *   concurrent creates (and rolls, and re-activating updates, which count under the same lock)
 *   cannot overshoot the cap. If a statement fails, the ones after it fail too and `COMMIT` rolls
 *   back. The lock cannot go into the statement itself: its snapshot would predate the lock.
 * - PGlite: the statement alone. PGlite is one backend that runs one statement or transaction at a
 *   time, so nothing can commit between the count and the insert.
 */
export async function insertUnderCap(driver: Driver, values: InsertUnderCapValues): Promise<boolean> {
  const params = parameters(values);
  if (driver.kind === "pglite") {
    const result = await driver.client.query(query.sql, params);
    return result.rows.length > 0;
  }
  const connection = await driver.client.reserve();
  const sent = [
    connection.unsafe("begin"),
    connection.unsafe(LOCK, [walletLockKey(values.wallet)], { prepare: true }),
    connection.unsafe(query.sql, params, { prepare: true }),
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
