CREATE TABLE "usage_daily" (
	"key_id" text NOT NULL,
	"wallet" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "usage_daily_pkey" PRIMARY KEY("key_id","day","outcome"),
	CONSTRAINT "usage_daily_outcome_check" CHECK ("usage_daily"."outcome" IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED'))
);
--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_daily_wallet_day_idx" ON "usage_daily" USING btree ("wallet","day","key_id","outcome","count");--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): usage_daily follows usage_hourly.
-- Statement-level triggers with transition tables: one aggregated upsert per statement, whatever
-- its size. For INSERT ... ON CONFLICT DO UPDATE, inserted rows reach the INSERT trigger and
-- updated rows the UPDATE trigger (as old/new pairs, so only the increase is added).
CREATE FUNCTION "usage_daily_add_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily (key_id, wallet, day, outcome, count)
  SELECT n.key_id, n.wallet, date_trunc('day', n.hour, 'UTC'), n.outcome, sum(n.count)::bigint
  FROM inserted_rows AS n
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (key_id, day, outcome) DO UPDATE SET count = usage_daily.count + EXCLUDED.count;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "usage_daily_add_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily (key_id, wallet, day, outcome, count)
  SELECT n.key_id, n.wallet, date_trunc('day', n.hour, 'UTC'), n.outcome, sum(n.count - o.count)::bigint
  FROM new_rows AS n JOIN old_rows AS o USING (key_id, hour, outcome)
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (key_id, day, outcome) DO UPDATE SET count = usage_daily.count + EXCLUDED.count;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "usage_hourly_to_daily_insert" AFTER INSERT ON "usage_hourly"
  REFERENCING NEW TABLE AS inserted_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "usage_daily_add_inserted"();
--> statement-breakpoint
CREATE TRIGGER "usage_hourly_to_daily_update" AFTER UPDATE ON "usage_hourly"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "usage_daily_add_updated"();
--> statement-breakpoint
INSERT INTO "usage_daily" (key_id, wallet, day, outcome, count)
SELECT key_id, wallet, date_trunc('day', hour, 'UTC'), outcome, sum(count)::bigint
FROM "usage_hourly"
GROUP BY 1, 2, 3, 4;
