ALTER TABLE "key_credits" ADD COLUMN "last_top_up" bigint;--> statement-breakpoint
ALTER TABLE "key_credits" ADD COLUMN "exhausted_notified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written (drizzle-kit does not model functions or backfills). Everything below is separate
-- from the generated part above.
-- The credit events' payloads are built inside the spend's own statement (docs/webhooks.md#credit-events),
-- so the public ApiKey is built in SQL too: these two functions answer exactly what
-- GET /api-keys/:wallet answers for a key (keys/status.ts toApiKey), given its balance.
-- test/webhooks-credits.test.ts compares the two for keys with every field set.
CREATE FUNCTION "keyport_iso"("at" timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char("at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;--> statement-breakpoint
CREATE FUNCTION "keyport_public_credits"("allowance" bigint, "purchased" bigint, "refill_interval" text, "refill_amount" bigint, "refilled_at" timestamptz) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'remaining', "allowance" + "purchased",
    'purchased', "purchased",
    'refill', CASE WHEN "refill_interval" IS NULL OR "refill_amount" IS NULL THEN NULL
      ELSE jsonb_build_object('interval', "refill_interval", 'amount', "refill_amount") END,
    'refilledAt', keyport_iso("refilled_at"))
$$;--> statement-breakpoint
CREATE FUNCTION "keyport_public_key"("key_id" text, "at" timestamptz, "credits" jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', k.id,
    'wallet', k.wallet,
    'name', k.name,
    'start', k.start,
    'status', CASE WHEN k.revoked_at IS NOT NULL AND k.revoked_at <= "at" THEN 'revoked'
      WHEN k.expires_at IS NOT NULL AND k.expires_at <= "at" THEN 'expired' ELSE 'active' END,
    'createdAt', keyport_iso(k.created_at),
    'expiresAt', keyport_iso(k.expires_at),
    'lastUsedAt', keyport_iso(k.last_used_at),
    'revokedAt', keyport_iso(k.revoked_at),
    'rateLimit', CASE WHEN k.rate_limit_limit IS NULL OR k.rate_limit_window_seconds IS NULL THEN NULL
      ELSE jsonb_build_object('limit', k.rate_limit_limit, 'windowSeconds', k.rate_limit_window_seconds) END,
    'permissions', to_jsonb(k.permissions),
    'credits', "credits",
    'meta', k.meta,
    'leak', CASE WHEN k.leak_source IS NULL OR k.leak_reported_at IS NULL THEN NULL
      ELSE jsonb_build_object('url', k.leak_url, 'source', k.leak_source, 'reportedAt', keyport_iso(k.leak_reported_at)) END,
    'allowedIps', to_jsonb(k.allowed_ips))
  FROM api_keys k WHERE k.id = "key_id"
$$;--> statement-breakpoint
-- Backfill: the last top-up of balances topped up before this migration.
UPDATE "key_credits" c SET "last_top_up" = p."credits"
FROM (SELECT DISTINCT ON ("credits_id") "credits_id", "credits" FROM "payments"
  WHERE "status" = 'credited' ORDER BY "credits_id", "updated_at" DESC) p
WHERE c."id" = p."credits_id";
