CREATE TABLE "usage_hourly" (
	"key_id" text NOT NULL,
	"wallet" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "usage_hourly_pkey" PRIMARY KEY("key_id","hour","outcome"),
	CONSTRAINT "usage_hourly_outcome_check" CHECK ("usage_hourly"."outcome" IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED'))
);
--> statement-breakpoint
ALTER TABLE "usage_hourly" ADD CONSTRAINT "usage_hourly_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_hourly_wallet_hour_idx" ON "usage_hourly" USING btree ("wallet","hour","key_id","outcome","count");