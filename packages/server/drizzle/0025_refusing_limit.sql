ALTER TABLE "key_verifications" ADD COLUMN "limit_name" text;--> statement-breakpoint
ALTER TABLE "key_verifications" ADD COLUMN "limit_scope" text;--> statement-breakpoint
ALTER TABLE "key_verifications" ADD CONSTRAINT "key_verifications_limit_scope_check" CHECK ("key_verifications"."limit_scope" IN ('key', 'wallet'));