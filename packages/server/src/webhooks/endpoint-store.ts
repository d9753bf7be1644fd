import { and, asc, count, eq, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/database.js";
import { type WebhookRow, webhooks } from "../db/schema/index.js";
import type { EventChanges } from "../events/changes.js";
import { recordEvent } from "../events/record-event.js";
import { randomBase62 } from "../keys/base62.js";
import type { OutboxEventType } from "../schemas/webhook.js";
import {
  webhookCreatedChanges,
  webhookDeletedChanges,
  webhookRotatedChanges,
  webhookUpdatedChanges,
} from "./audit-changes.js";
import { encryptSecret, newWebhookSecret } from "./secret.js";
import type { WebhookPatch, WebhookRef } from "./webhook-service.js";

/** How long a rotated-out secret keeps signing beside the new one (docs/webhooks.md). */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A new endpoint id: `wh_` + 22 base62 characters (~131 bits), like key ids. */
export function newWebhookId(): string {
  return `wh_${randomBase62(22)}`;
}

/**
 * Serialises the wallet's endpoint changes that count against its cap until the transaction ends.
 * A transaction-scoped advisory lock rather than a row: a wallet without endpoints has no row to
 * lock, and under READ COMMITTED the count that follows the lock sees every create committed
 * before it (PGlite runs one transaction at a time, where the lock costs nothing).
 */
async function lockWalletEndpoints(tx: Tx, wallet: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${wallet}`}::text, 0))`);
}

function own(ref: WebhookRef) {
  return and(eq(webhooks.id, ref.id), eq(webhooks.wallet, ref.wallet));
}

/** An endpoint change to record in its owner's audit trail. */
export interface EndpointAuditEvent {
  owner: string;
  action: "webhook.created" | "webhook.updated" | "webhook.deleted";
  at: Date;
  changes: EventChanges;
}

/** Records an endpoint change with `tx`, the transaction making it. */
export type RecordEndpointEvent = (tx: Tx, event: EndpointAuditEvent) => Promise<void>;

/** The wallet's own trail (docs/api.md, KeyEvent): the owner is the wallet. */
export const recordWalletEndpointEvent: RecordEndpointEvent = (tx, event) =>
  recordEvent(tx, {
    wallet: event.owner,
    keyId: null,
    action: event.action,
    at: event.at,
    changes: event.changes,
  });

/** Options of {@link createEndpointStore}. */
export interface EndpointStoreOptions<View> {
  db: Db;
  /** WEBHOOKS_ENCRYPTION_KEY (webhooks/encryption-key.ts). */
  key: Buffer;
  maxPerWallet: number;
  /** How a row is shown (never its secrets). */
  view: (row: WebhookRow) => View;
  /** Where changes are recorded: the wallet's trail, or the operator's. */
  record: RecordEndpointEvent;
}

/**
 * The `webhooks` table behind create, list, update, delete and rotate, each scoped to an owner: a
 * wallet's address, or `operator` (owner.ts).
 */
export function createEndpointStore<View>({
  db,
  key,
  maxPerWallet,
  view,
  record,
}: EndpointStoreOptions<View>) {
  const toWebhook = view;
  return {
    async list(wallet: string): Promise<View[]> {
      const rows = await db
        .select()
        .from(webhooks)
        .where(eq(webhooks.wallet, wallet))
        .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
      return rows.map(toWebhook);
    },

    create(input: {
      wallet: string;
      url: string;
      events: OutboxEventType[];
      description: string | null;
      now: Date;
    }): Promise<{ ok: true; webhook: View; secret: string } | { ok: false; reason: "cap" }> {
      return db.transaction(async (tx) => {
        await lockWalletEndpoints(tx, input.wallet);
        const [held] = await tx
          .select({ n: count() })
          .from(webhooks)
          .where(eq(webhooks.wallet, input.wallet));
        if ((held?.n ?? 0) >= maxPerWallet) return { ok: false as const, reason: "cap" as const };
        const secret = newWebhookSecret();
        const [row] = await tx
          .insert(webhooks)
          .values({
            id: newWebhookId(),
            wallet: input.wallet,
            url: input.url,
            events: input.events,
            description: input.description,
            createdAt: input.now,
            secret: encryptSecret(key, secret),
          })
          .returning();
        if (row === undefined) throw new Error("The webhook insert returned no row");
        await record(tx, {
          owner: input.wallet,
          action: "webhook.created",
          at: input.now,
          changes: webhookCreatedChanges({ ...input, id: row.id }),
        });
        return { ok: true as const, webhook: toWebhook(row), secret };
      });
    },

    async get(ref: WebhookRef): Promise<View | null> {
      const [row] = await db.select().from(webhooks).where(own(ref));
      return row === undefined ? null : toWebhook(row);
    },

    update(ref: WebhookRef, patch: WebhookPatch, now: Date): Promise<View | null> {
      return db.transaction(async (tx) => {
        const set: PgUpdateSetSource<typeof webhooks> = {};
        if (patch.url !== undefined) set.url = patch.url;
        if (patch.events !== undefined) set.events = patch.events;
        if (patch.description !== undefined) set.description = patch.description;
        // Enabling clears why it was disabled; disabling by hand says so. Setting the state it is
        // already in changes nothing, so a server-disabled endpoint keeps its reason.
        if (patch.enabled === true)
          Object.assign(set, { enabled: true, disabledReason: null, failingSince: null });
        if (patch.enabled === false) {
          set.enabled = false;
          set.disabledReason = sql`case when ${webhooks.enabled} then 'manual' else ${webhooks.disabledReason} end`;
        }
        if (Object.keys(set).length === 0) {
          const [unchanged] = await tx.select().from(webhooks).where(own(ref));
          return unchanged === undefined ? null : toWebhook(unchanged);
        }
        const [row] = await tx.update(webhooks).set(set).where(own(ref)).returning();
        if (row === undefined) return null;
        await record(tx, {
          owner: ref.wallet,
          action: "webhook.updated",
          at: now,
          changes: webhookUpdatedChanges(ref.id, patch),
        });
        return toWebhook(row);
      });
    },

    delete(ref: WebhookRef, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        await lockWalletEndpoints(tx, ref.wallet);
        const [row] = await tx
          .delete(webhooks)
          .where(own(ref))
          .returning({ id: webhooks.id, url: webhooks.url });
        if (row === undefined) return false;
        await record(tx, {
          owner: ref.wallet,
          action: "webhook.deleted",
          at: now,
          changes: webhookDeletedChanges(row),
        });
        return true;
      });
    },

    rotateSecret(ref: WebhookRef, now: Date): Promise<{ webhook: View; secret: string } | null> {
      return db.transaction(async (tx) => {
        const secret = newWebhookSecret();
        const previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_OVERLAP_MS);
        // The current secret moves to previous as stored (still encrypted): it is never decrypted here.
        const [row] = await tx
          .update(webhooks)
          .set({
            secret: encryptSecret(key, secret),
            previousSecret: sql`${webhooks.secret}`,
            previousSecretExpiresAt,
          })
          .where(own(ref))
          .returning();
        if (row === undefined) return null;
        await record(tx, {
          owner: ref.wallet,
          action: "webhook.updated",
          at: now,
          changes: webhookRotatedChanges(ref.id, previousSecretExpiresAt),
        });
        return { webhook: toWebhook(row), secret };
      });
    },
  };
}

export type EndpointStore<View> = ReturnType<typeof createEndpointStore<View>>;
