import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { NamedRateLimit, RateLimit } from "../../schemas/rate-limits.js";

/**
 * The plans the operator sells (docs/plans.md): what a wallet on each may do. Never deleted: an
 * archived plan (`archived_at` set) is no longer listed or assignable, and wallets on it stay on it.
 * JSON columns hold the shapes of schemas/plans.ts, validated before every write.
 */
export const plans = pgTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  /** `{ amount, days }` (amount a decimal string of whole tokens); null: free. */
  price: jsonb("price").$type<{ amount: string; days: number }>(),
  /** `{ amount, interval }`; null: none (the wallet balance comes in phase 2). */
  includedCredits: jsonb("included_credits").$type<{ amount: number; interval: "daily" | "monthly" }>(),
  metered: boolean("metered").notNull().default(false),
  /** null: the server's MAX_ACTIVE_KEYS_PER_WALLET. */
  maxActiveKeys: integer("max_active_keys"),
  rateLimits: jsonb("rate_limits").$type<NamedRateLimit[]>().notNull().default(sql`'[]'::jsonb`),
  keyRateLimit: jsonb("key_rate_limit").$type<RateLimit>(),
  permissions: text("permissions").array().notNull().default(sql`'{*}'::text[]`),
  public: boolean("public").notNull().default(true),
  archivedAt: timestamp("archived_at", { withTimezone: true, precision: 3 }),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export type PlanRow = typeof plans.$inferSelect;
