import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A wallet's webhook endpoints (docs/webhooks.md). The signing secret is stored encrypted with
 * WEBHOOKS_ENCRYPTION_KEY (webhooks/secret.ts), since signing needs the secret itself; after a
 * rotation the previous secret keeps signing beside the new one until `previous_secret_expires_at`.
 * `events` lists the event types the endpoint receives (schemas/webhook.ts).
 */
export const webhooks = pgTable(
  "webhooks",
  {
    /** `wh_` + 22 base62 characters. */
    id: text("id").primaryKey(),
    wallet: text("wallet").notNull(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    description: text("description"),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Why the endpoint stopped receiving (`gone`: it answered 410; `failing`: retries ran out); null when enabled. */
    disabledReason: text("disabled_reason"),
    /**
     * The first failed attempt since the endpoint last answered 2xx (or was enabled); null while it
     * succeeds. An endpoint failing for 3 days straight is disabled (docs/webhooks.md, "Delivery").
     */
    failingSince: timestamp("failing_since", { withTimezone: true, precision: 3 }),
    /** `whsec_...` encrypted (webhooks/secret.ts): never returned after creation or rotation. */
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true, precision: 3 }),
  },
  (table) => [
    index("webhooks_wallet_idx").on(table.wallet),
    check(
      "webhooks_disabled_reason_check",
      sql`${table.disabledReason} IS NULL OR ${table.disabledReason} IN ('gone', 'failing', 'manual')`,
    ),
  ],
);

export type WebhookRow = typeof webhooks.$inferSelect;
