import { and, eq, inArray, isNull, not, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { plans } from "../db/schema/index.js";
import { type Env, EnvError } from "../env.js";
import { IMPLICIT_PLAN_ID } from "../schemas/plans.js";
import { INVALIDATION_CHANNEL, PLANS_PAYLOAD } from "../verify/invalidation.js";
import { implicitPlan, type PlanSettings, planValues } from "./plan-rows.js";
import { type PlansFile, readPlansFile } from "./plans-file.js";

/** Settings the plans depend on. */
export type PlanEnv = Pick<Env, "PLANS_FILE" | "DEFAULT_PLAN" | "MAX_ACTIVE_KEYS_PER_WALLET">;

/**
 * Reads and checks PLANS_FILE before anything is opened: a bad file refuses the start, one line per
 * problem. Null when no file is set.
 * @throws EnvError
 */
export async function loadPlansFile(env: PlanEnv): Promise<PlansFile | null> {
  if (env.PLANS_FILE === undefined) return null;
  const file = await readPlansFile(env.PLANS_FILE);
  const defaultId = env.DEFAULT_PLAN ?? file.defaultPlan ?? IMPLICIT_PLAN_ID;
  const where = env.DEFAULT_PLAN !== undefined ? "DEFAULT_PLAN" : "defaultPlan";
  const entry = file.plans.find((candidate) => candidate.id === defaultId);
  if (entry === undefined)
    throw new EnvError(
      `Invalid plans file ${env.PLANS_FILE}:\n  ${where}: names ${defaultId}, which is no plan in the file`,
    );
  if (entry.price !== null)
    throw new EnvError(
      `Invalid plans file ${env.PLANS_FILE}:\n  ${where}: ${defaultId} has a price; the default plan must be free`,
    );
  return file;
}

/**
 * Brings the database's plans in line with the settings at start (docs/plans.md): PLANS_FILE's plans
 * are created or updated by id and any other plan is archived (never deleted); without a file, a
 * deployment with no default plan gets the implicit `free` one. Every running instance forgets its
 * cached keys' plans. Refuses a default plan that is missing, archived or paid.
 * @throws EnvError
 */
export async function preparePlans(db: Db, env: PlanEnv, file: PlansFile | null): Promise<PlanSettings> {
  const defaultPlanId = env.DEFAULT_PLAN ?? file?.defaultPlan ?? IMPLICIT_PLAN_ID;
  const settings: PlanSettings = {
    defaultPlanId,
    maxActiveKeys: env.MAX_ACTIVE_KEYS_PER_WALLET,
    plansFile: env.PLANS_FILE ?? null,
  };
  const now = new Date();
  if (file !== null) {
    await db.transaction(async (tx) => {
      for (const entry of file.plans) {
        const values = planValues(entry, now);
        await tx
          .insert(plans)
          .values({ ...values, createdAt: now })
          .onConflictDoUpdate({ target: plans.id, set: { ...values, archivedAt: null } });
      }
      const ids = file.plans.map((entry) => entry.id);
      await tx
        .update(plans)
        .set({ archivedAt: now, updatedAt: now })
        .where(and(not(inArray(plans.id, ids)), isNull(plans.archivedAt)));
      await tx.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${PLANS_PAYLOAD})`);
    });
    return settings;
  }
  if (defaultPlanId === IMPLICIT_PLAN_ID) {
    await db
      .insert(plans)
      .values({ ...planValues(implicitPlan(IMPLICIT_PLAN_ID), now), createdAt: now })
      .onConflictDoNothing();
  }
  const [row] = await db.select().from(plans).where(eq(plans.id, defaultPlanId)).limit(1);
  const where = env.DEFAULT_PLAN !== undefined ? "DEFAULT_PLAN" : "the default plan";
  if (row === undefined)
    throw new EnvError(
      `Invalid settings:\n  DEFAULT_PLAN: names ${defaultPlanId}, which is no plan of this deployment`,
    );
  if (row.archivedAt !== null)
    throw new EnvError(`Invalid settings:\n  ${where}: ${defaultPlanId} is archived`);
  if (row.price !== null)
    throw new EnvError(
      `Invalid settings:\n  ${where}: ${defaultPlanId} has a price; the default plan must be free`,
    );
  return settings;
}
