import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { OperatorActor } from "../../schemas/operator.js";

/**
 * Operator tokens (docs/operator.md#tokens): `<KEY_PREFIX>o_` secrets in the key format, stored only as
 * their SHA-256 `hash`, with a name, scopes and an optional expiry. `revoked_at` set: refused from then
 * on (an operator revoked it, or a leak report found it: `leak_*`). `last_used_at` is written at most once
 * a minute a token.
 */
export const operatorTokens = pgTable(
  "operator_tokens",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    hash: text("hash").notNull().unique("operator_tokens_hash_unique"),
    start: text("start").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    createdBy: jsonb("created_by").$type<OperatorActor>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
    leakSource: text("leak_source"),
    leakUrl: text("leak_url"),
    leakReportedAt: timestamp("leak_reported_at", { withTimezone: true, precision: 3 }),
  },
  (table) => [index("operator_tokens_created_idx").on(table.createdAt, table.id)],
);

export type OperatorTokenRow = typeof operatorTokens.$inferSelect;
