ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_status_check";--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "failing_since" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("webhook_id","next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" IN ('pending', 'succeeded', 'failed', 'dropped'));