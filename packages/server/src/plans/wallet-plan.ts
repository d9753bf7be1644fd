import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.js";
import { type PlanRow, plans, wallets } from "../db/schema/index.js";
import type { WalletPlanView } from "../schemas/plans.js";
import { boundsOf, type PlanSettings } from "./plan-rows.js";

/** The plan a wallet is on at `now`, with its row and when it ends. */
export interface WalletPlan {
  row: PlanRow;
  /** When the wallet returns to the default plan; null: never (the default plan never ends). */
  paidUntil: Date | null;
}

/**
 * The plan a wallet is on at `now` (docs/plans.md#a-wallets-plan): its own while `paid_until` is unset
 * or ahead, else the default plan (an ended plan ends lazily, on the next read). A wallet never seen,
 * or one whose plan row is missing, is on the default plan.
 */
export async function walletPlan(
  db: Db | Tx,
  wallet: string,
  settings: PlanSettings,
  now: Date,
): Promise<WalletPlan> {
  // One statement: the default plan, and the wallet's own while it lasts (at most two rows).
  const current = and(
    eq(plans.id, wallets.planId),
    or(isNull(wallets.paidUntil), gt(wallets.paidUntil, now)),
  );
  const rows = await db
    .select({ plan: plans, paidUntil: wallets.paidUntil, own: sql<boolean>`coalesce(${current}, false)` })
    .from(plans)
    .leftJoin(wallets, eq(wallets.address, wallet))
    .where(or(eq(plans.id, settings.defaultPlanId), current));
  const own = rows.find((row) => row.own);
  if (own !== undefined) return { row: own.plan, paidUntil: own.paidUntil };
  const fallback = rows.find((row) => row.plan.id === settings.defaultPlanId);
  // The start refuses to run without its default plan (plans/prepare-plans.ts).
  if (fallback === undefined) throw new Error("the default plan is missing");
  return { row: fallback.plan, paidUntil: null };
}

/** The wallet view of a plan (`GET /wallets/:wallet`). */
export function walletPlanView(plan: WalletPlan, settings: PlanSettings): WalletPlanView {
  return {
    id: plan.row.id,
    name: plan.row.name,
    paidUntil: plan.paidUntil,
    bounds: boundsOf(plan.row, settings.maxActiveKeys),
  };
}
