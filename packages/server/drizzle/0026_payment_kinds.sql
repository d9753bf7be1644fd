ALTER TABLE "payments" ALTER COLUMN "key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "kind" text DEFAULT 'top_up' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "days" integer;--> statement-breakpoint
CREATE INDEX "payments_settled_at_idx" ON "payments" USING btree ("updated_at","id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_kind_check" CHECK ("payments"."kind" IN ('top_up', 'plan'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_top_up_key_check" CHECK ("payments"."kind" <> 'top_up' OR "payments"."key_id" IS NOT NULL);