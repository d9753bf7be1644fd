ALTER TABLE "api_keys" ADD COLUMN "rate_limits" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_limits" ADD COLUMN "rate_limits" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- hand-written: each key's and wallet's single limit becomes its limit named "default", applied to
-- every verification (docs/verifying-keys.md#named-limits); counting starts afresh under the new
-- sliding windows.
UPDATE "api_keys" SET "rate_limits" = jsonb_build_array(jsonb_build_object('name', 'default', 'limit', "rate_limit_limit", 'windowSeconds', "rate_limit_window_seconds", 'autoApply', true))
WHERE "rate_limit_limit" IS NOT NULL AND "rate_limit_window_seconds" IS NOT NULL;--> statement-breakpoint
UPDATE "wallet_limits" SET "rate_limits" = jsonb_build_array(jsonb_build_object('name', 'default', 'limit', "rate_limit_limit", 'windowSeconds', "rate_limit_window_seconds", 'autoApply', true));
