import type { Db } from "../db/database.js";
import { recordOperatorEvent } from "../operator/audit.js";
import type { OperatorActor } from "../schemas/operator.js";
import {
  MAX_OPERATOR_WEBHOOKS,
  type OperatorWebhook,
  type OperatorWebhookEventType,
} from "../schemas/operator-webhooks.js";
import type { WebhookDelivery } from "../schemas/webhook.js";
import { createDeliveryLog } from "./delivery-log.js";
import { createEndpointStore, type RecordEndpointEvent } from "./endpoint-store.js";
import { OPERATOR_OWNER } from "./owner.js";
import { toOperatorWebhook } from "./rows.js";
import type { TargetRefusal, WebhookPatch } from "./webhook-service.js";

/** Options of {@link createOperatorWebhooks}. */
export interface OperatorWebhooksOptions {
  db: Db;
  /** WEBHOOKS_ENCRYPTION_KEY (webhooks/encryption-key.ts). */
  key: Buffer;
  /** The wallets' URL check: the same address policy (webhooks/target.ts). */
  checkUrl(url: string): Promise<TargetRefusal>;
}

/**
 * The operator's endpoints behind `operator.webhooks.*`: an interface of API types only, so the
 * client's published declarations name no database type. Changes take the acting operator.
 */
export interface OperatorWebhooks {
  /** The most endpoints the deployment may hold. */
  readonly max: number;
  checkUrl(url: string): Promise<TargetRefusal>;
  list(): Promise<OperatorWebhook[]>;
  get(id: string): Promise<OperatorWebhook | null>;
  create(
    input: { url: string; events: OperatorWebhookEventType[]; description: string | null; now: Date },
    actor: OperatorActor,
  ): Promise<{ ok: true; webhook: OperatorWebhook; secret: string } | { ok: false; reason: "cap" }>;
  update(id: string, patch: WebhookPatch, now: Date, actor: OperatorActor): Promise<OperatorWebhook | null>;
  delete(id: string, now: Date, actor: OperatorActor): Promise<boolean>;
  rotateSecret(
    id: string,
    now: Date,
    actor: OperatorActor,
  ): Promise<{ webhook: OperatorWebhook; secret: string } | null>;
  test(
    id: string,
    now: Date,
  ): Promise<{ ok: true; delivery: WebhookDelivery } | { ok: false; reason: "not_found" | "disabled" }>;
  deliveries(id: string): Promise<WebhookDelivery[] | null>;
  redeliver(
    id: string,
    deliveryId: string,
    now: Date,
  ): Promise<
    { ok: true; delivery: WebhookDelivery } | { ok: false; reason: "not_found" | "pending" | "disabled" }
  >;
}

/**
 * The deployment's own endpoints (docs/operator.md#webhooks): rows of `webhooks` owned by `operator`
 * (owner.ts), so the same store, delivery log, outbox and dispatcher serve them. Each change is
 * recorded in the operator trail with the acting operator; the wallets' trails never see them.
 */
export function createOperatorWebhooks({ db, key, checkUrl }: OperatorWebhooksOptions): OperatorWebhooks {
  const log = createDeliveryLog(db);
  const storeFor = (actor: OperatorActor | null) => {
    const record: RecordEndpointEvent = async (tx, event) => {
      if (actor === null) throw new Error("An operator endpoint change needs its actor");
      await recordOperatorEvent(tx, { actor, action: event.action, at: event.at, changes: event.changes });
    };
    return createEndpointStore({
      db,
      key,
      maxPerWallet: MAX_OPERATOR_WEBHOOKS,
      view: toOperatorWebhook,
      record,
    });
  };
  const reader = storeFor(null);
  const ref = (id: string) => ({ wallet: OPERATOR_OWNER, id });
  return {
    max: MAX_OPERATOR_WEBHOOKS,
    checkUrl,
    list: () => reader.list(OPERATOR_OWNER),
    get: (id: string) => reader.get(ref(id)),
    create: (input, actor) => storeFor(actor).create({ ...input, wallet: OPERATOR_OWNER }),
    update: (id, patch, now, actor) => storeFor(actor).update(ref(id), patch, now),
    delete: (id, now, actor) => storeFor(actor).delete(ref(id), now),
    rotateSecret: (id, now, actor) => storeFor(actor).rotateSecret(ref(id), now),
    test: (id, now) => log.test(ref(id), now),
    deliveries: (id) => log.deliveries(ref(id)),
    redeliver: (id, deliveryId, now) => log.redeliver(ref(id), deliveryId, now),
  };
}
