CREATE TABLE "wallet_active_keys" (
	"wallet" text PRIMARY KEY NOT NULL,
	"at_most" integer NOT NULL,
	CONSTRAINT "wallet_active_keys_at_most_check" CHECK ("wallet_active_keys"."at_most" >= 0)
);
--> statement-breakpoint
-- Every wallet's active keys now, so the bound starts exact; keys only stop being active from here on,
-- except through the paths that add one to the bound.
INSERT INTO "wallet_active_keys" ("wallet", "at_most")
SELECT "wallet", count(*)::int FROM "api_keys"
WHERE ("revoked_at" IS NULL OR "revoked_at" > now()) AND ("expires_at" IS NULL OR "expires_at" > now())
GROUP BY "wallet";
