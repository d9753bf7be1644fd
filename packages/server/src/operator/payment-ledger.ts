import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql, sum } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/database.js";
import { type PaymentRow, payments } from "../db/schema/index.js";
import type { OperatorPaymentView, PaymentKind } from "../schemas/operator-payments.js";

/** "Settled" in the operator API: settled on chain, or settled and credited (docs/operator.md#payments). */
const SETTLED = inArray(payments.status, ["settled", "credited"]);

/** A settled payment's time: its last change, which for settled and credited payments is the settlement. */
const settledAt = payments.updatedAt;

/** The settled payments a read covers: settled in [from, to), of one kind when `kind` is set. */
export interface PaymentRange {
  from: Date;
  to: Date;
  kind?: PaymentKind | undefined;
}

/** Where a page ended, newest first: the last payment's time and id. */
export interface PaymentCursor {
  at: Date;
  id: number;
}

function ofKind(range: PaymentRange): SQL | undefined {
  return range.kind === undefined ? undefined : eq(payments.kind, range.kind);
}

function inRange(range: PaymentRange): SQL | undefined {
  return and(SETTLED, gte(settledAt, range.from), lt(settledAt, range.to), ofKind(range));
}

// Pages and batches after the first start at their cursor with a row comparison, which takes the place
// of the range's bound on that side: PostgreSQL then reads payments_settled_at_idx in order from the
// cursor, even in the generic plan a prepared statement gets after a few runs (with both bounds and the
// cursor, that plan read every remaining row of the range and sorted them, making the export quadratic).

// A cursor beyond the range's bound is moved to it: (to, 0) excludes `to` itself, (from, 0) includes `from`.

/** Settled payments in `range` older than `before` (newest-first pages). */
function beforeCursor(range: PaymentRange, cursor: PaymentCursor | null): SQL | undefined {
  if (cursor === null) return inRange(range);
  const before = cursor.at >= range.to ? { at: range.to, id: 0 } : cursor;
  return and(
    SETTLED,
    gte(settledAt, range.from),
    sql`(${settledAt}, ${payments.id}) < (${before.at.toISOString()}::timestamptz, ${before.id})`,
    ofKind(range),
  );
}

/** Settled payments in `range` newer than `after` (oldest-first batches). */
function afterCursor(range: PaymentRange, cursor: PaymentCursor | null): SQL | undefined {
  if (cursor === null) return inRange(range);
  const after = cursor.at < range.from ? { at: range.from, id: 0 } : cursor;
  return and(
    SETTLED,
    lt(settledAt, range.to),
    sql`(${settledAt}, ${payments.id}) > (${after.at.toISOString()}::timestamptz, ${after.id})`,
    ofKind(range),
  );
}

export function paymentView(row: PaymentRow): OperatorPaymentView {
  return {
    id: String(row.id),
    settledAt: row.updatedAt,
    status: row.status === "credited" ? "credited" : "settled",
    kind: row.kind,
    wallet: row.wallet,
    keyId: row.keyId,
    payer: row.payer,
    amount: row.amount,
    baseUnits: String(row.baseUnits),
    asset: row.asset,
    network: row.network,
    credits: row.credits,
    planId: row.planId,
    days: row.days,
    transaction: row.transaction,
  };
}

/** One page of settled payments in `range`, newest first (ties by id), optionally of one wallet. */
export async function listSettledPayments(
  db: Db,
  params: { range: PaymentRange; wallet?: string | undefined; limit: number; before: PaymentCursor | null },
) {
  const before = params.before;
  const rows = await db
    .select()
    .from(payments)
    .where(
      and(
        beforeCursor(params.range, before),
        params.wallet === undefined ? undefined : eq(payments.wallet, params.wallet),
      ),
    )
    .orderBy(desc(settledAt), desc(payments.id))
    .limit(params.limit + 1);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  return {
    payments: page.map(paymentView),
    next: rows.length > params.limit && last ? { at: last.updatedAt, id: last.id } : null,
  };
}

/** Sums of settled payments in `range` per (network, asset), over the range and per UTC day. */
export async function paymentTotals(db: Db, range: PaymentRange) {
  const day = sql<string>`to_char(${settledAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const sums = {
    network: payments.network,
    asset: payments.asset,
    // numeric(78,0) sums exactly; read as text so no float ever holds it.
    baseUnits: sql<string>`coalesce(${sum(payments.baseUnits)}, 0)::text`,
    payments: count(),
    credits: sql<number>`coalesce(sum(${payments.credits}), 0)::bigint`.mapWith(Number),
  };
  const [totals, days] = await Promise.all([
    db
      .select(sums)
      .from(payments)
      .where(inRange(range))
      .groupBy(payments.network, payments.asset)
      .orderBy(asc(payments.network), asc(payments.asset)),
    db
      .select({ day, ...sums })
      .from(payments)
      .where(inRange(range))
      .groupBy(day, payments.network, payments.asset)
      .orderBy(asc(day), asc(payments.network), asc(payments.asset)),
  ]);
  return { from: range.from, to: range.to, totals, days };
}

/** How many rows one read of the CSV export takes: memory stays bounded whatever the range holds. */
export const EXPORT_BATCH = 1_000;

/** Every settled payment in `range`, oldest first, read in keyset batches of {@link EXPORT_BATCH}. */
export async function* settledPaymentBatches(
  db: Db,
  range: PaymentRange,
): AsyncGenerator<OperatorPaymentView[]> {
  let after: PaymentCursor | null = null;
  for (;;) {
    const rows: PaymentRow[] = await db
      .select()
      .from(payments)
      .where(afterCursor(range, after))
      .orderBy(asc(settledAt), asc(payments.id))
      .limit(EXPORT_BATCH);
    if (rows.length > 0) yield rows.map(paymentView);
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || last === undefined) return;
    after = { at: last.updatedAt, id: last.id };
  }
}

// Year 0 is valid ISO-8601 but not a PostgreSQL timestamp: a forged cursor must get 400, not a failed query.
const decodedCursor = z.tuple([
  z.iso.datetime().refine((value) => new Date(value).getUTCFullYear() >= 1),
  z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
]);

/** Opaque to clients: base64url of `[settledAt, id]`. */
export function encodePaymentCursor(cursor: PaymentCursor): string {
  return Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.id])).toString("base64url");
}

/** The cursor, or null when it is not one this server issued. */
export function decodePaymentCursor(text: string): PaymentCursor | null {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = decodedCursor.safeParse(json);
  return parsed.success ? { at: new Date(parsed.data[0]), id: parsed.data[1] } : null;
}
