import { inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.js";
import { type ApiKeyRow, type KeyCreditsRow, keyCredits } from "../db/schema/index.js";
import type { Credits, CreditsInput } from "../schemas/key-policy.js";
import { refillPeriodStart } from "./refill-period.js";

/** A key's credits by `credits_id`, for the rows that have any: one query, none when no row has credits. */
export async function loadCredits(
  db: Pick<Db, "select">,
  rows: readonly Pick<ApiKeyRow, "creditsId">[],
): Promise<Map<string, KeyCreditsRow>> {
  const ids = [...new Set(rows.flatMap((row) => (row.creditsId === null ? [] : [row.creditsId])))];
  if (ids.length === 0) return new Map();
  const found = await db.select().from(keyCredits).where(inArray(keyCredits.id, ids));
  return new Map(found.map((row) => [row.id, row]));
}

/**
 * Credits as the API shows them at `now`: a refill due since the last spend is applied to the
 * allowance, as a spend would; `remaining` is the allowance plus the purchased credits.
 */
export function toCredits(row: KeyCreditsRow | undefined, now: Date): Credits | null {
  if (row === undefined) return null;
  const refill =
    row.refillInterval !== null && row.refillAmount !== null
      ? { interval: row.refillInterval, amount: row.refillAmount }
      : null;
  if (refill !== null && row.refilledAt !== null) {
    const period = refillPeriodStart(refill.interval, now.getTime());
    if (row.refilledAt < period) {
      return {
        remaining: refill.amount + row.purchased,
        purchased: row.purchased,
        refill,
        refilledAt: period,
      };
    }
  }
  return {
    remaining: row.remaining + row.purchased,
    purchased: row.purchased,
    refill,
    refilledAt: row.refilledAt,
  };
}

/**
 * The row values of credits set at `now`: a refill rule starts counting from the current period.
 * Only the allowance: purchased credits change by top-ups and spends alone. Setting a balance starts
 * a new period of its credit events: credits.exhausted may be sent again (docs/webhooks.md#credit-events).
 */
export function creditsValues(input: CreditsInput, now: Date) {
  return {
    remaining: input.remaining,
    refillInterval: input.refill?.interval ?? null,
    refillAmount: input.refill?.amount ?? null,
    refilledAt: input.refill === null ? null : refillPeriodStart(input.refill.interval, now.getTime()),
    exhaustedNotified: false,
  };
}

/**
 * Sets the balance `id` (a key's id, for the balance first made for it) to `input`, creating it if
 * needed: create and update use this; a roll shares the balance instead.
 */
export async function upsertCredits(
  tx: Tx,
  id: string,
  input: CreditsInput,
  now: Date,
): Promise<KeyCreditsRow> {
  const values = creditsValues(input, now);
  const [row] = await tx
    .insert(keyCredits)
    .values({ id, ...values })
    .onConflictDoUpdate({
      target: keyCredits.id,
      set: {
        remaining: sql`excluded.remaining`,
        refillInterval: sql`excluded.refill_interval`,
        refillAmount: sql`excluded.refill_amount`,
        refilledAt: sql`excluded.refilled_at`,
        exhaustedNotified: sql`excluded.exhausted_notified`,
        // A change of the balance: spends journaled against the old version are superseded.
        version: sql`${keyCredits.version} + 1`,
      },
    })
    .returning();
  if (!row) throw new Error("credits upsert returned no row");
  return row;
}
