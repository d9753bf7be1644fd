import type { Driver } from "../db/database.js";
import type { ApiKeyRow, KeyCreditsRow } from "../db/schema/index.js";
import { keyCreatedChanges } from "../events/changes.js";
import type { CreditsInput, KeyMeta } from "../schemas/key-policy.js";
import type { OperatorActor } from "../schemas/operator.js";
import type { NamedRateLimit } from "../schemas/rate-limits.js";
import type { WebhookPayload } from "../schemas/webhook.js";
import { keyEventData } from "../webhooks/key-event.js";
import { newMessageId } from "../webhooks/message-id.js";
import { newKeyId } from "./id.js";
import { insertUnderCap } from "./insert-under-cap.js";
import { creditsValues } from "./key-credits.js";
import { newKey } from "./secret.js";

export interface CreateKeyParams {
  wallet: string;
  name: string;
  expiresAt: Date | null;
  rateLimits: NamedRateLimit[];
  permissions: string[];
  credits: CreditsInput | null;
  meta: KeyMeta | null;
  /** Normalised entries (the schema's `allowedIps`); null: any address. */
  allowedIps: string[] | null;
  /** An operator issuing the key to the wallet (docs/operator.md#keys); absent: the wallet's own create. */
  issuedBy?: { actor: OperatorActor; reason: string | null } | undefined;
  prefix: string;
  maxActiveKeys: number;
  now: Date;
}

/**
 * Inserts a key, with its credit balance, its `key.created` event and webhook, unless the wallet already
 * holds `maxActiveKeys` active ones. The cap check and the inserts are one statement that holds the
 * wallet's `wallet_active_keys` row (see insert-under-cap.ts), so concurrent creates cannot
 * overshoot and a refused create records nothing. The row returned is the one inserted.
 */
export async function createKey(driver: Driver, params: CreateKeyParams) {
  const secret = newKey(params.prefix);
  const id = newKeyId();
  const { wallet, name, now, expiresAt, rateLimits, permissions, meta, allowedIps } = params;
  const balance: KeyCreditsRow | undefined =
    params.credits === null
      ? undefined
      : { id, ...creditsValues(params.credits, now), version: 0, purchased: 0, lastTopUp: null };
  const row: ApiKeyRow = {
    id,
    wallet,
    name,
    hash: secret.hash,
    start: secret.start,
    createdAt: now,
    expiresAt,
    revokedAt: null,
    lastUsedAt: null,
    rateLimits,
    rolledFrom: null,
    permissions,
    meta,
    creditsId: balance === undefined ? null : id,
    leakUrl: null,
    leakSource: null,
    leakReportedAt: null,
    allowedIps,
    issuedByOperator: params.issuedBy !== undefined,
  };
  const changes = {
    ...keyCreatedChanges(params),
    ...(params.issuedBy ? { actor: "operator", reason: params.issuedBy.reason } : {}),
  };
  const payload: WebhookPayload = {
    type: "key.created",
    timestamp: now.toISOString(),
    data: keyEventData(row, balance, now, changes),
  };
  const inserted = await insertUnderCap(driver, {
    id,
    wallet,
    name,
    hash: secret.hash,
    start: secret.start,
    now: now.toISOString(),
    expiresAt: expiresAt?.toISOString() ?? null,
    rateLimits: JSON.stringify(rateLimits),
    permissions: JSON.stringify(permissions),
    meta: meta === null ? null : JSON.stringify(meta),
    allowedIps: allowedIps === null ? null : JSON.stringify(allowedIps),
    credits:
      balance === undefined ? null : { ...balance, refilledAt: balance.refilledAt?.toISOString() ?? null },
    changes: JSON.stringify(changes),
    webhook: { messageId: newMessageId(now), payload: JSON.stringify(payload) },
    operatorEvent:
      params.issuedBy === undefined
        ? null
        : { actor: JSON.stringify(params.issuedBy.actor), reason: params.issuedBy.reason },
    maxActiveKeys: params.maxActiveKeys,
  });
  if (!inserted) return { ok: false as const };
  return { ok: true as const, key: secret.key, row, credits: balance };
}
