CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now(),
	"last_attempt_at" timestamp (3) with time zone,
	"last_status_code" integer,
	"last_duration_ms" integer,
	"last_response" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" IN ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"type" text NOT NULL,
	"key_id" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"dedupe_key" text,
	CONSTRAINT "webhook_messages_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"disabled_reason" text,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	CONSTRAINT "webhooks_disabled_reason_check" CHECK ("webhooks"."disabled_reason" IS NULL OR "webhooks"."disabled_reason" IN ('gone', 'failing', 'manual'))
);
--> statement-breakpoint
ALTER TABLE "key_events" DROP CONSTRAINT "key_events_action_check";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_message_id_webhook_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."webhook_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","id" desc);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_message_idx" ON "webhook_deliveries" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "webhook_messages_created_at_idx" ON "webhook_messages" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "webhooks_wallet_idx" ON "webhooks" USING btree ("wallet");--> statement-breakpoint
ALTER TABLE "key_events" ADD CONSTRAINT "key_events_action_check" CHECK ("key_events"."action" IN ('key.created', 'key.updated', 'key.rolled', 'key.revoked', 'key.leaked', 'session.created', 'session.ended', 'limits.updated', 'key.topped_up', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.disabled'));