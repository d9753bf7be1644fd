import type { RawQuery } from "../db/raw.js";
import { creditEventCtes } from "../webhooks/credit-event-sql.js";
import { newMessageId } from "../webhooks/message-id.js";
import type { CreditEventMarker, JournalEntry } from "./state.js";

// The balance as the spend left it (the marker's), with the refill rule of the row.
const SOURCE = `ev as (select $3::bigint as allowance, $4::bigint as purchased, c.refill_interval, c.refill_amount,
nullif($5, '')::timestamptz as refilled_at, $6::bigint as mark from key_credits c where c.id = $7)`;

const ENQUEUE = {
  "credits.low": `with ${SOURCE}, ${creditEventCtes("low", {
    type: "credits.low",
    from: "ev",
    where: "true",
    keyId: "$8",
    messageId: "$1",
    at: "$2",
    dedupeKey: "$9",
  })} select 1`,
  "credits.exhausted": `with ${SOURCE}, ${creditEventCtes("exhausted", {
    type: "credits.exhausted",
    from: "ev",
    where: "true",
    keyId: "$8",
    messageId: "$1",
    at: "$2",
    dedupeKey: "$9",
  })} select 1`,
} as const;

/**
 * Writes the credit event a journal entry carries (credits/scripts.ts) to the webhook outbox, inside
 * the drainer's transaction. Its time is the entry's (Redis's clock at the spend); its dedupe key
 * names the entry, so the event exists once however often the entry is drained.
 */
export async function enqueueCreditEvent(
  query: RawQuery,
  entry: JournalEntry,
  marker: CreditEventMarker,
): Promise<void> {
  if (marker.keyId === "") return;
  const at = new Date(Number(entry.id.split("-")[0]));
  await query(ENQUEUE[marker.type], [
    newMessageId(at),
    at.toISOString(),
    String(marker.allowance),
    String(marker.purchased),
    marker.refilledAt === null ? "" : new Date(marker.refilledAt).toISOString(),
    String(marker.mark),
    entry.creditsId,
    marker.keyId,
    `${marker.type}:${entry.creditsId}:${entry.id}`,
  ]);
}
