CREATE TABLE "key_verifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"outcome" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"cost" integer NOT NULL,
	"ip" text,
	CONSTRAINT "key_verifications_outcome_check" CHECK ("key_verifications"."outcome" IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED', 'IP_NOT_ALLOWED'))
);
--> statement-breakpoint
ALTER TABLE "key_verifications" ADD CONSTRAINT "key_verifications_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_verifications_key_at_idx" ON "key_verifications" USING btree ("key_id","at" desc,"id" desc);