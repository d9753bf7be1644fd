CREATE TABLE "operator_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor" jsonb NOT NULL,
	"action" text NOT NULL,
	"wallet" text,
	"key_id" text,
	"reason" text,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "operator_events_action_check" CHECK ("operator_events"."action" IN ('token.created', 'token.revoked', 'token.leaked', 'wallet.suspended', 'wallet.unsuspended', 'key.revoked', 'key.issued', 'webhook.created', 'webhook.updated', 'webhook.deleted'))
);
--> statement-breakpoint
CREATE TABLE "operator_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"hash" text NOT NULL,
	"start" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_by" jsonb NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"last_used_at" timestamp (3) with time zone,
	"leak_source" text,
	"leak_url" text,
	"leak_reported_at" timestamp (3) with time zone,
	CONSTRAINT "operator_tokens_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"address" text PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp (3) with time zone,
	"last_active_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"suspended_at" timestamp (3) with time zone,
	"suspended_reason" text
);
--> statement-breakpoint
CREATE INDEX "operator_events_wallet_id_idx" ON "operator_events" USING btree ("wallet","id" desc) WHERE "operator_events"."wallet" is not null;--> statement-breakpoint
CREATE INDEX "operator_events_at_idx" ON "operator_events" USING brin ("at");--> statement-breakpoint
CREATE INDEX "operator_tokens_created_idx" ON "operator_tokens" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "wallets_last_active_idx" ON "wallets" USING btree ("last_active_at" desc,"address");--> statement-breakpoint
-- Every wallet seen before this table existed: signed in (live sessions, and sign-ins the audit trail
-- still holds), holding keys, or with a wallet-wide limit (docs/operator.md#wallets).
INSERT INTO "wallets" ("address", "created_at", "last_sign_in_at", "last_active_at")
SELECT "wallet", min("first_seen"), max("signed_in"), max("active")
FROM (
  SELECT "wallet", min("created_at") AS "first_seen", max("created_at") AS "signed_in", max(greatest("created_at", "last_seen_at")) AS "active"
  FROM "sessions" GROUP BY "wallet"
  UNION ALL
  SELECT "wallet", min("at"), max("at") FILTER (WHERE "action" = 'session.created'), max("at")
  FROM "key_events" GROUP BY "wallet"
  UNION ALL
  SELECT "wallet", min("created_at"), NULL, max(greatest("created_at", coalesce("last_used_at", "created_at")))
  FROM "api_keys" GROUP BY "wallet"
  UNION ALL
  SELECT "wallet", "updated_at", NULL, "updated_at" FROM "wallet_limits"
) AS "seen"
GROUP BY "wallet";
