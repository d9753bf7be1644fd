import { eq } from "drizzle-orm";
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
  const [own] = await db
    .select({ planId: wallets.planId, paidUntil: wallets.paidUntil })
    .from(wallets)
    .where(eq(wallets.address, wallet))
    .limit(1);
  const current = own?.planId != null && (own.paidUntil === null || own.paidUntil > now) ? own : null;
  if (current?.planId != null) {
    const [row] = await db.select().from(plans).where(eq(plans.id, current.planId)).limit(1);
    if (row !== undefined) return { row, paidUntil: current.paidUntil };
  }
  const [row] = await db.select().from(plans).where(eq(plans.id, settings.defaultPlanId)).limit(1);
  // The start refuses to run without its default plan (plans/prepare-plans.ts).
  if (row === undefined) throw new Error("the default plan is missing");
  return { row, paidUntil: null };
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
