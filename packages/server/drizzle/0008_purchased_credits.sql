ALTER TABLE "key_credits" ALTER COLUMN "remaining" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "key_credits" ALTER COLUMN "refill_amount" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "key_credits" ADD COLUMN "purchased" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "key_credits" ADD CONSTRAINT "key_credits_purchased_check" CHECK ("key_credits"."purchased" >= 0);--> statement-breakpoint
ALTER TABLE "key_credits" ADD CONSTRAINT "key_credits_total_check" CHECK ("key_credits"."remaining" + "key_credits"."purchased" <= 9007199254740991);