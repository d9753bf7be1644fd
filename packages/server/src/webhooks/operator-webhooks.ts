import type { Db } from "../db/database.js";
import { recordOperatorEvent } from "../operator/audit.js";
import type { OperatorActor } from "../schemas/operator.js";
import {
  MAX_OPERATOR_WEBHOOKS,
  type OperatorWebhook,
  type OperatorWebhookEventType,
} from "../schemas/operator-webhooks.js";
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
 * The deployment's own endpoints (docs/operator.md#webhooks): rows of `webhooks` owned by `operator`
 * (owner.ts), so the same store, delivery log, outbox and dispatcher serve them. Each change is
 * recorded in the operator trail with the acting operator; the wallets' trails never see them.
 */
export function createOperatorWebhooks({ db, key, checkUrl }: OperatorWebhooksOptions) {
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
    list: (): Promise<OperatorWebhook[]> => reader.list(OPERATOR_OWNER),
    get: (id: string) => reader.get(ref(id)),
    create: (
      input: { url: string; events: OperatorWebhookEventType[]; description: string | null; now: Date },
      actor: OperatorActor,
    ) => storeFor(actor).create({ ...input, wallet: OPERATOR_OWNER }),
    update: (id: string, patch: WebhookPatch, now: Date, actor: OperatorActor) =>
      storeFor(actor).update(ref(id), patch, now),
    delete: (id: string, now: Date, actor: OperatorActor) => storeFor(actor).delete(ref(id), now),
    rotateSecret: (id: string, now: Date, actor: OperatorActor) => storeFor(actor).rotateSecret(ref(id), now),
    test: (id: string, now: Date) => log.test(ref(id), now),
    deliveries: (id: string) => log.deliveries(ref(id)),
    redeliver: (id: string, deliveryId: string, now: Date) => log.redeliver(ref(id), deliveryId, now),
  };
}

export type OperatorWebhooks = ReturnType<typeof createOperatorWebhooks>;
