ALTER TABLE "api_keys" DROP COLUMN "rate_limit_limit";--> statement-breakpoint
ALTER TABLE "api_keys" DROP COLUMN "rate_limit_window_seconds";--> statement-breakpoint
ALTER TABLE "wallet_limits" DROP COLUMN "rate_limit_limit";--> statement-breakpoint
ALTER TABLE "wallet_limits" DROP COLUMN "rate_limit_window_seconds";--> statement-breakpoint
-- hand-written: the public key as keys/status.ts toApiKey builds it, now from the named limits
-- (rateLimit is the one named "default").
CREATE OR REPLACE FUNCTION "keyport_public_key"("key_id" text, "at" timestamptz, "credits" jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
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
    'rateLimit', (SELECT jsonb_build_object('limit', l->'limit', 'windowSeconds', l->'windowSeconds')
      FROM jsonb_array_elements(k.rate_limits) AS l WHERE l->>'name' = 'default' LIMIT 1),
    'rateLimits', k.rate_limits,
    'permissions', to_jsonb(k.permissions),
    'credits', "credits",
    'meta', k.meta,
    'leak', CASE WHEN k.leak_source IS NULL OR k.leak_reported_at IS NULL THEN NULL
      ELSE jsonb_build_object('url', k.leak_url, 'source', k.leak_source, 'reportedAt', keyport_iso(k.leak_reported_at)) END,
    'allowedIps', to_jsonb(k.allowed_ips),
    'issuedBy', CASE WHEN k.issued_by_operator THEN jsonb_build_object('operator', true) END)
  FROM api_keys k WHERE k.id = "key_id"
$$;
