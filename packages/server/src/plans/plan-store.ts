import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { plans, wallets } from "../db/schema/index.js";
import type { ChangeValue } from "../events/changes.js";
import { recordOperatorEvent } from "../operator/audit.js";
import type { OperatorActor } from "../schemas/operator.js";
import {
  MAX_PLANS,
  type Plan,
  type PlanInput,
  type PlanPatch,
  type WalletPlanView,
} from "../schemas/plans.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import type { KeyCache } from "../verify/cache.js";
import { INVALIDATION_CHANNEL, PLANS_PAYLOAD } from "../verify/invalidation.js";
import { recordEventWithWebhook } from "../webhooks/key-event.js";
import { type PlanSettings, planValues, toPlan } from "./plan-rows.js";
import { type WalletPlan, walletPlan, walletPlanIn, walletPlanView } from "./wallet-plan.js";

/** Why a plan edit was refused. */
export type PlanEditRefusal =
  | "file"
  | "exists"
  | "too_many"
  | "not_found"
  | "default_paid"
  | "default_archived";

/** The plans as procedures use them (docs/plans.md): public shapes in and out, no SQL. */
export interface PlanStore {
  readonly settings: PlanSettings;
  /** Non-archived plans; `publicOnly`: only those listed to wallets. Default plan first, then by id. */
  list(options: { publicOnly: boolean; archived: boolean }): Promise<Plan[]>;
  /** The plan a wallet is on now, with its bounds. */
  ofWallet(wallet: string, now: Date): Promise<WalletPlan>;
  /** The wallet view of {@link ofWallet}. */
  viewOfWallet(wallet: string, now: Date): Promise<WalletPlanView>;
  /** Whether the operator suspended the wallet. */
  isSuspended(wallet: string): Promise<boolean>;
  create(input: PlanInput, by: OperatorActor, now: Date): Promise<Plan | PlanEditRefusal>;
  update(id: string, patch: PlanPatch, by: OperatorActor, now: Date): Promise<Plan | PlanEditRefusal>;
  /** Archives (idempotent): no longer listed or assignable; wallets on it stay on it. */
  archive(id: string, by: OperatorActor, now: Date): Promise<Plan | PlanEditRefusal>;
  /** Puts a wallet on a plan until `until` (null: no end), as the operator (docs/operator.md#plans). */
  setWalletPlan(params: {
    wallet: string;
    planId: string;
    until: Date | null;
    reason: string;
    by: OperatorActor;
    now: Date;
  }): Promise<WalletPlanView | "not_found" | "archived">;
}

export interface PlanStoreOptions {
  db: Db;
  settings: PlanSettings;
  /** Tells every instance's key cache that a wallet's plan changed. */
  changes: KeyChanges;
  /** This instance's key cache, cleared at once after a plan edit (the others on the notification). */
  cache: Pick<KeyCache, "clear">;
}

/** Creates the plan store over the plans and wallets tables. */
export function createPlanStore({ db, settings, changes, cache }: PlanStoreOptions): PlanStore {
  const toView = (row: typeof plans.$inferSelect) => toPlan(row, settings);

  /** Runs a plan edit with its audit and the announcement that every cached key's plan is stale. */
  async function edit<T>(
    change: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<T>,
  ): Promise<T> {
    const result = await db.transaction(async (tx) => {
      const value = await change(tx);
      if (typeof value !== "string")
        await tx.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${PLANS_PAYLOAD})`);
      return value;
    });
    if (typeof result !== "string") cache.clear();
    return result;
  }

  return {
    settings,
    async list({ publicOnly, archived }) {
      const conditions = [];
      if (!archived) conditions.push(isNull(plans.archivedAt));
      if (publicOnly) conditions.push(eq(plans.public, true));
      const rows = await db
        .select()
        .from(plans)
        .where(and(...conditions))
        .orderBy(sql`${plans.id} = ${settings.defaultPlanId} desc`, asc(plans.id));
      return rows.map(toView);
    },
    ofWallet: (wallet, now) => walletPlan(db, wallet, settings, now),
    async viewOfWallet(wallet, now) {
      return walletPlanView(await walletPlan(db, wallet, settings, now), settings);
    },
    async isSuspended(wallet) {
      const [row] = await db
        .select({ suspendedAt: wallets.suspendedAt })
        .from(wallets)
        .where(eq(wallets.address, wallet))
        .limit(1);
      return row?.suspendedAt != null;
    },
    async create(input, by, now) {
      if (settings.plansFile !== null) return "file";
      return edit(async (tx) => {
        const [total] = await tx.select({ n: count() }).from(plans);
        if ((total?.n ?? 0) >= MAX_PLANS) return "too_many" as const;
        const [row] = await tx
          .insert(plans)
          .values({ ...planValues(input, now), createdAt: now })
          .onConflictDoNothing()
          .returning();
        if (row === undefined) return "exists" as const;
        await recordOperatorEvent(tx, {
          actor: by,
          action: "plan.created",
          at: now,
          changes: { planId: row.id },
        });
        return toView(row);
      });
    },
    async update(id, patch, by, now) {
      if (settings.plansFile !== null) return "file";
      return edit(async (tx) => {
        const [current] = await tx.select().from(plans).where(eq(plans.id, id)).for("update");
        if (current === undefined) return "not_found" as const;
        if (id === settings.defaultPlanId && patch.price != null) return "default_paid" as const;
        const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
        const [row] = await tx
          .update(plans)
          .set({ ...set, updatedAt: now })
          .where(eq(plans.id, id))
          .returning();
        if (row === undefined) return "not_found" as const;
        await recordOperatorEvent(tx, {
          actor: by,
          action: "plan.updated",
          at: now,
          changes: { planId: id, fields: Object.keys(set).sort() },
        });
        return toView(row);
      });
    },
    async archive(id, by, now) {
      if (settings.plansFile !== null) return "file";
      if (id === settings.defaultPlanId) return "default_archived";
      return edit(async (tx) => {
        const [current] = await tx.select().from(plans).where(eq(plans.id, id)).for("update");
        if (current === undefined) return "not_found" as const;
        if (current.archivedAt !== null) return toView(current);
        const [row] = await tx
          .update(plans)
          .set({ archivedAt: now, updatedAt: now })
          .where(eq(plans.id, id))
          .returning();
        if (row === undefined) return "not_found" as const;
        await recordOperatorEvent(tx, {
          actor: by,
          action: "plan.archived",
          at: now,
          changes: { planId: id },
        });
        return toView(row);
      });
    },
    async setWalletPlan({ wallet, planId, until, reason, by, now }) {
      return changes.transaction(db, async (tx, _keyChanged, walletChanged) => {
        const [target] = await tx.select().from(plans).where(eq(plans.id, planId)).limit(1);
        if (target === undefined) return "not_found" as const;
        if (target.archivedAt !== null) return "archived" as const;
        const previous = await walletPlanIn(tx, wallet, settings, now);
        await tx
          .insert(wallets)
          .values({ address: wallet, createdAt: now, lastActiveAt: now, planId, paidUntil: until })
          .onConflictDoUpdate({ target: wallets.address, set: { planId, paidUntil: until } });
        const changed: Record<string, ChangeValue> = {
          actor: "operator",
          planId,
          previousPlanId: previous.row.id,
          paidUntil: until?.toISOString() ?? null,
          reason,
        };
        await recordEventWithWebhook(
          tx,
          { wallet, keyId: null, action: "wallet.plan_changed", at: now, changes: changed },
          { type: "wallet.plan_changed", keyId: null, data: { wallet, changes: changed } },
        );
        await recordOperatorEvent(tx, {
          actor: by,
          action: "wallet.plan_changed",
          at: now,
          wallet,
          reason,
          changes: { planId, previousPlanId: previous.row.id, paidUntil: until?.toISOString() ?? null },
        });
        await walletChanged(wallet);
        return walletPlanView(
          { row: toPlan(target, settings), paidUntil: until, suspended: previous.suspended },
          settings,
        );
      });
    },
  };
}
