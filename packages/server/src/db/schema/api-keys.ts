import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { KeyMeta } from "../../schemas/key-policy.js";
import type { NamedRateLimit } from "../../schemas/rate-limits.js";
import { keyCredits } from "./key-credits.js";

/**
 * One row per API key. Only the SHA-256 `hash` of the secret is kept; `start` is its display prefix.
 * `revoked_at` may lie in the future: a roll schedules the old key's revocation at the end of its grace
 * period, and status is derived at read time from `revoked_at` and `expires_at`. A leaked key is revoked and
 * carries its first leak report in the `leak_*` columns.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    wallet: text("wallet").notNull(),
    name: text("name").notNull(),
    hash: text("hash").notNull().unique("api_keys_hash_unique"),
    start: text("start").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
    /** The key's named limits (docs/verifying-keys.md#named-limits), validated on the way in; [] when none. */
    rateLimits: jsonb("rate_limits").$type<NamedRateLimit[]>().notNull().default(sql`'[]'::jsonb`),
    rolledFrom: text("rolled_from"),
    permissions: text("permissions").array().notNull().default(sql`'{}'::text[]`),
    meta: jsonb("meta").$type<KeyMeta>(),
    creditsId: text("credits_id").references(() => keyCredits.id),
    /** Where a leak report found the key (null for a self-report); set once, with `leak_source` and `leak_reported_at`. */
    leakUrl: text("leak_url"),
    /** Who reported the leak: GitHub's or GitLab's `source`, `trufflehog` never (it only verifies), `self-report`. */
    leakSource: text("leak_source"),
    /** When the first leak report arrived; null for a key never reported (docs/leaks.md). */
    leakReportedAt: timestamp("leak_reported_at", { withTimezone: true, precision: 3 }),
    /** Normalised addresses and CIDR blocks verify accepts; null: any address. */
    allowedIps: text("allowed_ips").array(),
    /** The operator issued it to the wallet (docs/operator.md#keys); a roll carries it over. */
    issuedByOperator: boolean("issued_by_operator").notNull().default(false),
  },
  (table) => [
    index("api_keys_wallet_created_idx").on(table.wallet, sql`${table.createdAt} desc`, table.id),
    // The expiry notices' sweep (webhooks/expiry-events.ts): a subscribed wallet's keys by expiry.
    index("api_keys_expiry_idx")
      .on(table.wallet, table.expiresAt)
      .where(sql`${table.revokedAt} is null and ${table.expiresAt} is not null`),
    // The keys list's other sorts (docs/api.md#list-keys): without them a wallet of 10,000 keys is
    // sorted whole for each page. `last_used_at` changes at most once a minute a key (usage/buffer.ts).
    index("api_keys_wallet_last_used_idx").on(
      table.wallet,
      table.lastUsedAt.desc().nullsLast(),
      table.id.desc(),
    ),
    index("api_keys_wallet_name_idx").on(table.wallet, sql`lower(${table.name})`, table.id),
  ],
);

/** A stored key row (never leaves the server: procedures map it to the `ApiKey` schema). */
export type ApiKeyRow = typeof apiKeys.$inferSelect;
