ALTER TABLE "key_events" DROP CONSTRAINT "key_events_action_check";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "leak_url" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "leak_source" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "leak_reported_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "key_events" ADD CONSTRAINT "key_events_action_check" CHECK ("key_events"."action" IN ('key.created', 'key.updated', 'key.rolled', 'key.revoked', 'key.leaked', 'session.created', 'session.ended', 'limits.updated', 'key.topped_up'));