import { sql } from "drizzle-orm";
import { bigserial, check, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { OPERATOR_ACTIONS, type OperatorActor } from "../../schemas/operator.js";

/**
 * The operator audit trail (docs/operator.md#audit): one row per operator action, newest first by `id`,
 * with who acted (`actor`: an operator wallet, a token by id and name, or the command line), the target
 * wallet and key when there is one, the reason given and what changed (never a secret or token).
 * Deleted after EVENTS_RETENTION_DAYS like the wallets' trail.
 */
export const operatorEvents = pgTable(
  "operator_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    actor: jsonb("actor").$type<OperatorActor>().notNull(),
    action: text("action").notNull(),
    wallet: text("wallet"),
    keyId: text("key_id"),
    reason: text("reason"),
    changes: jsonb("changes").notNull().default(sql`'{}'::jsonb`),
  },
  (table) => [
    index("operator_events_wallet_id_idx")
      .on(table.wallet, sql`${table.id} desc`)
      .where(sql`${table.wallet} is not null`),
    index("operator_events_at_idx").using("brin", table.at),
    check(
      "operator_events_action_check",
      sql`${table.action} IN (${sql.raw(OPERATOR_ACTIONS.map((action) => `'${action}'`).join(", "))})`,
    ),
  ],
);

export type OperatorEventRow = typeof operatorEvents.$inferSelect;
