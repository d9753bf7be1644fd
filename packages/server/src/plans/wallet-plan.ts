import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.js";
import { preparePerDatabase } from "../db/prepared.js";
import { plans, wallets } from "../db/schema/index.js";
import type { Plan, WalletPlanView } from "../schemas/plans.js";
import { boundsOf, type PlanSettings, toPlan } from "./plan-rows.js";

/** The plan a wallet is on at `now` (its public shape: no table type leaves plans/), and when it ends. */
export interface WalletPlan {
  row: Plan;
  /** When the wallet returns to the default plan; null: never (the default plan never ends). */
  paidUntil: Date | null;
  /** The operator suspended the wallet (docs/operator.md#suspension): read in the same statement. */
  suspended: boolean;
}

/** The default plan and the wallet's own while it lasts (at most two rows), in one statement. */
function planRowsQuery(db: Db | Tx) {
  const current = and(
    eq(plans.id, wallets.planId),
    or(isNull(wallets.paidUntil), gt(wallets.paidUntil, sql.placeholder("now"))),
  );
  return db
    .select({
      plan: plans,
      paidUntil: wallets.paidUntil,
      suspendedAt: wallets.suspendedAt,
      own: sql<boolean>`coalesce(${current}, false)`,
    })
    .from(plans)
    .leftJoin(wallets, eq(wallets.address, sql.placeholder("wallet")))
    .where(or(eq(plans.id, sql.placeholder("defaultPlanId")), current))
    .prepare("wallet_plan");
}

/**
 * Prepared once per database: a key create reads it before its insert, so it must not cost the
 * extra round trip an unprepared statement with parameters takes (test/reliability/key-create-postgres).
 */
const preparedPlanRows = preparePerDatabase(planRowsQuery);

type PlanRows = Awaited<ReturnType<ReturnType<typeof planRowsQuery>["execute"]>>;

/** The wallet's plan from its rows: its own when one is in force, else the default plan. */
function fromRows(rows: PlanRows, settings: PlanSettings): WalletPlan {
  // Every row carries the wallet's columns (the join is on the wallet alone).
  const suspended = rows.some((row) => row.suspendedAt !== null);
  const own = rows.find((row) => row.own);
  if (own !== undefined) return { row: toPlan(own.plan, settings), paidUntil: own.paidUntil, suspended };
  const fallback = rows.find((row) => row.plan.id === settings.defaultPlanId);
  // The start refuses to run without its default plan (plans/prepare-plans.ts).
  if (fallback === undefined) throw new Error("the default plan is missing");
  return { row: toPlan(fallback.plan, settings), paidUntil: null, suspended };
}

/** Placeholders skip column encoders: timestamps go as ISO text (db/prepared.ts). */
const values = (wallet: string, settings: PlanSettings, now: Date) => ({
  wallet,
  defaultPlanId: settings.defaultPlanId,
  now: now.toISOString(),
});

/**
 * The plan a wallet is on at `now` (docs/plans.md#a-wallets-plan): its own while `paid_until` is unset
 * or ahead, else the default plan (an ended plan ends lazily, on the next read). A wallet never seen,
 * or one whose plan row is missing, is on the default plan.
 */
export async function walletPlan(
  db: Db,
  wallet: string,
  settings: PlanSettings,
  now: Date,
): Promise<WalletPlan> {
  return fromRows(await preparedPlanRows(db).execute(values(wallet, settings, now)), settings);
}

/** {@link walletPlan} inside a transaction. */
export async function walletPlanIn(
  tx: Tx,
  wallet: string,
  settings: PlanSettings,
  now: Date,
): Promise<WalletPlan> {
  return fromRows(await planRowsQuery(tx).execute(values(wallet, settings, now)), settings);
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
