import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys.js";

/**
 * Each key's most recent verifications, at most RECENT_VERIFICATIONS_PER_KEY (50) a key
 * (docs/decisions.md, "Recent verifications"). Written only by the usage buffer's batched flush,
 * which inserts a flush's newest samples and deletes the rows beyond 50 of the keys it touched in
 * the same statement (usage/rollup.ts). `permissions` and `cost` are what the verify request asked,
 * `ip` the client address it gave; `limit_name` and `limit_scope` the limit that refused a
 * RATE_LIMITED one (null otherwise, and for rows written before they existed); never the key, its
 * hash or anything secret. Newest first is
 * (`at`, `id`) descending: `id` orders samples of the same millisecond.
 */
export const keyVerifications = pgTable(
  "key_verifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull(),
    outcome: text("outcome").notNull(),
    permissions: jsonb("permissions").$type<string[]>().notNull(),
    cost: integer("cost").notNull(),
    ip: text("ip"),
    limitName: text("limit_name"),
    limitScope: text("limit_scope"),
  },
  (table) => [
    index("key_verifications_key_at_idx").on(table.keyId, sql`${table.at} desc`, sql`${table.id} desc`),
    check(
      "key_verifications_outcome_check",
      sql`${table.outcome} IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED', 'IP_NOT_ALLOWED', 'WALLET_SUSPENDED')`,
    ),
    check("key_verifications_limit_scope_check", sql`${table.limitScope} IN ('key', 'wallet', 'plan')`),
  ],
);
