ALTER TABLE "usage_daily" DROP CONSTRAINT "usage_daily_outcome_check";--> statement-breakpoint
ALTER TABLE "usage_hourly" DROP CONSTRAINT "usage_hourly_outcome_check";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_ips" text[];--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_outcome_check" CHECK ("usage_daily"."outcome" IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED', 'IP_NOT_ALLOWED'));--> statement-breakpoint
ALTER TABLE "usage_hourly" ADD CONSTRAINT "usage_hourly_outcome_check" CHECK ("usage_hourly"."outcome" IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED', 'IP_NOT_ALLOWED'));