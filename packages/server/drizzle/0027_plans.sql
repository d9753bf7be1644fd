CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" jsonb,
	"included_credits" jsonb,
	"metered" boolean DEFAULT false NOT NULL,
	"max_active_keys" integer,
	"rate_limits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"key_rate_limit" jsonb,
	"permissions" text[] DEFAULT '{*}'::text[] NOT NULL,
	"public" boolean DEFAULT true NOT NULL,
	"archived_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_events" DROP CONSTRAINT "key_events_action_check";--> statement-breakpoint
ALTER TABLE "operator_events" DROP CONSTRAINT "operator_events_action_check";--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "paid_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "key_events" ADD CONSTRAINT "key_events_action_check" CHECK ("key_events"."action" IN ('key.created', 'key.updated', 'key.rolled', 'key.revoked', 'key.leaked', 'session.created', 'session.ended', 'limits.updated', 'key.topped_up', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.disabled', 'wallet.suspended', 'wallet.unsuspended', 'wallet.plan_changed'));--> statement-breakpoint
ALTER TABLE "operator_events" ADD CONSTRAINT "operator_events_action_check" CHECK ("operator_events"."action" IN ('token.created', 'token.revoked', 'token.leaked', 'wallet.suspended', 'wallet.unsuspended', 'key.revoked', 'key.issued', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'plan.created', 'plan.updated', 'plan.archived', 'wallet.plan_changed'));