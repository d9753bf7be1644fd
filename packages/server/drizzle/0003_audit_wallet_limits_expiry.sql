CREATE TABLE "key_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"key_id" text,
	"action" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "key_events_action_check" CHECK ("key_events"."action" IN ('key.created', 'key.updated', 'key.rolled', 'key.revoked', 'session.created', 'session.ended'))
);
--> statement-breakpoint
CREATE TABLE "wallet_limits" (
	"wallet" text PRIMARY KEY NOT NULL,
	"rate_limit_limit" integer NOT NULL,
	"rate_limit_window_seconds" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "key_events_wallet_id_idx" ON "key_events" USING btree ("wallet","id" desc);--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "siwe_nonces_expires_at_idx" ON "siwe_nonces" USING btree ("expires_at");