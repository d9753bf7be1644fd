DROP INDEX "payments_open_idx";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "from_block" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "searched_block" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_open_idx" ON "payments" USING btree ("next_attempt_at") WHERE "payments"."status" IN ('pending', 'settled');