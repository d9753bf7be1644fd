CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"asset" text NOT NULL,
	"payer" text NOT NULL,
	"nonce" text NOT NULL,
	"signature_hash" text NOT NULL,
	"key_id" text NOT NULL,
	"credits_id" text NOT NULL,
	"wallet" text NOT NULL,
	"amount" text NOT NULL,
	"base_units" numeric(78, 0) NOT NULL,
	"credits" bigint NOT NULL,
	"valid_before" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"transaction" text,
	"answer" jsonb,
	"locked_until" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" IN ('pending', 'settled', 'credited', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "key_events" DROP CONSTRAINT "key_events_action_check";--> statement-breakpoint
CREATE UNIQUE INDEX "payments_authorization_idx" ON "payments" USING btree ("network","asset","payer","nonce");--> statement-breakpoint
CREATE INDEX "payments_open_idx" ON "payments" USING btree ("locked_until") WHERE "payments"."status" IN ('pending', 'settled');--> statement-breakpoint
ALTER TABLE "key_events" ADD CONSTRAINT "key_events_action_check" CHECK ("key_events"."action" IN ('key.created', 'key.updated', 'key.rolled', 'key.revoked', 'session.created', 'session.ended', 'limits.updated', 'key.topped_up'));