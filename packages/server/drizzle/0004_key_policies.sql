CREATE TABLE "key_credits" (
	"id" text PRIMARY KEY NOT NULL,
	"remaining" integer NOT NULL,
	"refill_interval" text,
	"refill_amount" integer,
	"refilled_at" timestamp (3) with time zone,
	CONSTRAINT "key_credits_remaining_check" CHECK ("key_credits"."remaining" >= 0),
	CONSTRAINT "key_credits_refill_check" CHECK (("key_credits"."refill_interval" IS NULL) = ("key_credits"."refill_amount" IS NULL) AND "key_credits"."refill_interval" IN ('daily', 'monthly'))
);
--> statement-breakpoint
ALTER TABLE "usage_daily" DROP CONSTRAINT "usage_daily_outcome_check";--> statement-breakpoint
ALTER TABLE "usage_hourly" DROP CONSTRAINT "usage_hourly_outcome_check";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "permissions" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "meta" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "credits_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_credits_id_key_credits_id_fk" FOREIGN KEY ("credits_id") REFERENCES "public"."key_credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_events_at_idx" ON "key_events" USING brin ("at");--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_outcome_check" CHECK ("usage_daily"."outcome" IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED'));--> statement-breakpoint
ALTER TABLE "usage_hourly" ADD CONSTRAINT "usage_hourly_outcome_check" CHECK ("usage_hourly"."outcome" IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED'));