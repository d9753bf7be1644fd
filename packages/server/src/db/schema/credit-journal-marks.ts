import { pgTable, smallint, text } from "drizzle-orm/pg-core";

/**
 * Per journal shard of the Redis credits (docs/decisions.md, Credits in Redis): the id of the last
 * stream entry applied to `key_credits`, written in the same transaction as the balances it
 * changed, so an entry is applied once however often a drainer retries or crashes.
 */
export const creditJournalMarks = pgTable("credit_journal_marks", {
  shard: smallint("shard").primaryKey(),
  appliedId: text("applied_id").notNull(),
});
