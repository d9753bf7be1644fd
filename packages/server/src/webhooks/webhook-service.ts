import type { Db } from "../db/database.js";
import {
  MAX_WEBHOOKS_PER_WALLET,
  type OutboxEventType,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
} from "../schemas/webhook.js";
import { createDeliveryLog } from "./delivery-log.js";
import { createEndpointStore, recordWalletEndpointEvent } from "./endpoint-store.js";
import { createOperatorWebhooks, type OperatorWebhooks } from "./operator-webhooks.js";
import { toWebhook } from "./rows.js";
import { checkWebhookTarget, type LookupAddresses, systemLookup } from "./target.js";

/** Why a URL may not be an endpoint (a 400 naming it), or null when it may. */
export type TargetRefusal = string | null;

/** What an update may change; an absent field is unchanged. */
export interface WebhookPatch {
  url?: string | undefined;
  events?: OutboxEventType[] | undefined;
  /** null clears it. */
  description?: string | null | undefined;
  enabled?: boolean | undefined;
}

/** One endpoint of one owner: a wallet, or `operator` (owner.ts). */
export interface WebhookRef {
  wallet: string;
  id: string;
}

/**
 * A wallet's webhook endpoints and their delivery log, behind `webhooks.*` (docs/webhooks.md).
 * Every method is scoped to the wallet: another wallet's endpoint is "not found". Each change writes
 * its audit event in its own transaction; test and redeliver only write rows the delivery engine sends.
 */
export interface WebhookService {
  /** The most endpoints a wallet may hold. */
  readonly maxPerWallet: number;
  /** Why `url` may not be an endpoint (scheme, address policy), or null (webhooks/target.ts). */
  checkUrl(url: string): Promise<TargetRefusal>;
  list(wallet: string): Promise<Webhook[]>;
  /** The new endpoint and its secret (returned once), or `cap` when the wallet holds the most already. */
  create(input: {
    wallet: string;
    url: string;
    events: WebhookEventType[];
    description: string | null;
    now: Date;
  }): Promise<{ ok: true; webhook: Webhook; secret: string } | { ok: false; reason: "cap" }>;
  update(ref: WebhookRef, patch: WebhookPatch, now: Date): Promise<Webhook | null>;
  delete(ref: WebhookRef, now: Date): Promise<boolean>;
  /** A new secret (returned once); the old one keeps signing beside it for 24 h. */
  rotateSecret(ref: WebhookRef, now: Date): Promise<{ webhook: Webhook; secret: string } | null>;
  /** Enqueues a `webhook.test` message to this endpoint alone. */
  test(
    ref: WebhookRef,
    now: Date,
  ): Promise<{ ok: true; delivery: WebhookDelivery } | { ok: false; reason: "not_found" | "disabled" }>;
  /** The endpoint's newest deliveries (at most 100), or null when there is no such endpoint. */
  deliveries(ref: WebhookRef): Promise<WebhookDelivery[] | null>;
  /** Sends the delivery's message again: back to pending, due now, attempts kept. */
  redeliver(
    ref: WebhookRef,
    deliveryId: string,
    now: Date,
  ): Promise<
    { ok: true; delivery: WebhookDelivery } | { ok: false; reason: "not_found" | "pending" | "disabled" }
  >;
  /** The deployment's own endpoints, managed by an operator session (docs/operator.md#webhooks). */
  readonly operator: OperatorWebhooks;
}

/** Options of {@link createWebhookService}. */
export interface WebhookServiceOptions {
  db: Db;
  /** WEBHOOKS_ENCRYPTION_KEY (webhooks/encryption-key.ts). */
  key: Buffer;
  /** WEBHOOKS_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** DNS for the URL check; the system resolver unless a test stands in for it. */
  lookup?: LookupAddresses;
  maxPerWallet?: number;
}

/**
 * The webhooks service over the database: endpoints (endpoint-store.ts), the delivery log
 * (delivery-log.ts) and the URL check (target.ts).
 * @example const webhooks = createWebhookService({ db, key: webhooksKey, allowPrivate: false });
 */
export function createWebhookService({
  db,
  key,
  allowPrivate,
  lookup = systemLookup,
  maxPerWallet = MAX_WEBHOOKS_PER_WALLET,
}: WebhookServiceOptions): WebhookService {
  const endpoints = createEndpointStore({
    db,
    key,
    maxPerWallet,
    view: toWebhook,
    record: recordWalletEndpointEvent,
  });
  const log = createDeliveryLog(db);
  const checkUrl = (url: string) => checkWebhookTarget(url, { allowPrivate, lookup });
  return {
    maxPerWallet,
    checkUrl,
    operator: createOperatorWebhooks({ db, key, checkUrl }),
    list: endpoints.list,
    create: endpoints.create,
    update: endpoints.update,
    delete: endpoints.delete,
    rotateSecret: endpoints.rotateSecret,
    test: log.test,
    deliveries: log.deliveries,
    redeliver: log.redeliver,
  };
}
