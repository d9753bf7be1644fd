import { TRPCError } from "@trpc/server";
import type { PlanEditRefusal } from "../../plans/plan-store.js";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { operatorPlansDescriptions } from "../../schemas/descriptions/plans.js";
import {
  getWalletAccountInput,
  listPlansOutput,
  operatorListPlansInput,
  type Plan,
  planIdInput,
  planInput,
  planOutput,
  setWalletPlanInput,
  setWalletPlanOutput,
  updatePlanInput,
  walletAccount,
} from "../../schemas/plans.js";
import { operatorProcedure, router } from "../../trpc.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const operatorPlansHttp = {
  list: {
    method: "GET",
    path: "/operator/plans",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "wallets:read",
  },
  create: {
    method: "POST",
    path: "/operator/plans",
    successStatus: 201,
    errors: [401, 403, 409, 413, 415],
    security: "operator",
    requires: "plans:write",
  },
  update: {
    method: "PATCH",
    path: "/operator/plans/{id}",
    successStatus: 200,
    errors: [401, 403, 404, 409, 413, 415],
    security: "operator",
    requires: "plans:write",
  },
  archive: {
    method: "DELETE",
    path: "/operator/plans/{id}",
    successStatus: 200,
    errors: [401, 403, 404, 409],
    security: "operator",
    requires: "plans:write",
  },
  setWalletPlan: {
    method: "POST",
    path: "/operator/wallets/{wallet}/plan",
    successStatus: 200,
    errors: [401, 403, 404, 409, 413, 415],
    security: "operator",
    requires: "plans:write",
  },
  walletPlan: {
    method: "GET",
    path: "/operator/wallets/{wallet}/plan",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "wallets:read",
  },
} as const satisfies Record<string, HttpPolicy>;

/** A plan, or the refusal of an edit as the operator reads it. */
function planOrRefusal(result: Plan | PlanEditRefusal, plansFile: string | null, id: string): { plan: Plan } {
  if (typeof result !== "string") return { plan: result };
  const messages: Record<PlanEditRefusal, [TRPCError["code"], string]> = {
    file: [
      "CONFLICT",
      `Plans are kept in PLANS_FILE (${plansFile ?? ""}) while it is set: edit the file and restart the server`,
    ],
    exists: ["CONFLICT", `A plan with the id ${id} exists already (archived plans keep their ids)`],
    too_many: ["CONFLICT", "This deployment holds the maximum of 100 plans"],
    not_found: ["NOT_FOUND", `No plan has the id ${id}`],
    default_paid: ["CONFLICT", `${id} is the default plan, which must stay free: it cannot have a price`],
    default_archived: [
      "CONFLICT",
      `${id} is the default plan: name another with DEFAULT_PLAN before archiving it`,
    ],
  };
  const [code, message] = messages[result];
  throw new TRPCError({ code, message });
}

/** The operator's plans (docs/operator.md#plans). */
export const operatorPlansRouter = router({
  list: operatorProcedure("wallets:read")
    .meta(
      openApiMeta(operatorPlansHttp.list, {
        tags: ["operator"],
        summary: "List plans",
        description: operatorPlansDescriptions.list,
      }),
    )
    .input(operatorListPlansInput)
    .output(listPlansOutput)
    .query(async ({ ctx, input }) => ({
      plans: await ctx.plans.list({ publicOnly: false, archived: input?.archived === "true" }),
    })),

  create: operatorProcedure("plans:write")
    .meta(
      openApiMeta(operatorPlansHttp.create, {
        tags: ["operator"],
        summary: "Create a plan",
        description: operatorPlansDescriptions.create,
      }),
    )
    .input(planInput)
    .output(planOutput)
    .mutation(async ({ ctx, input }) =>
      planOrRefusal(
        await ctx.plans.create(input, ctx.operator.actor, new Date()),
        ctx.plans.settings.plansFile,
        input.id,
      ),
    ),

  update: operatorProcedure("plans:write")
    .meta(
      openApiMeta(operatorPlansHttp.update, {
        tags: ["operator"],
        summary: "Update a plan",
        description: operatorPlansDescriptions.update,
      }),
    )
    .input(updatePlanInput)
    .output(planOutput)
    .mutation(async ({ ctx, input }) => {
      const { id, ...patch } = input;
      return planOrRefusal(
        await ctx.plans.update(id, patch, ctx.operator.actor, new Date()),
        ctx.plans.settings.plansFile,
        id,
      );
    }),

  archive: operatorProcedure("plans:write")
    .meta(
      openApiMeta(operatorPlansHttp.archive, {
        tags: ["operator"],
        summary: "Archive a plan",
        description: operatorPlansDescriptions.archive,
      }),
    )
    .input(planIdInput)
    .output(planOutput)
    .mutation(async ({ ctx, input }) =>
      planOrRefusal(
        await ctx.plans.archive(input.id, ctx.operator.actor, new Date()),
        ctx.plans.settings.plansFile,
        input.id,
      ),
    ),

  setWalletPlan: operatorProcedure("plans:write")
    .meta(
      openApiMeta(operatorPlansHttp.setWalletPlan, {
        tags: ["operator"],
        summary: "Put a wallet on a plan",
        description: operatorPlansDescriptions.setWalletPlan,
      }),
    )
    .input(setWalletPlanInput)
    .output(setWalletPlanOutput)
    .mutation(async ({ ctx, input }) => {
      const now = new Date();
      if (input.until !== null && input.until <= now)
        throw new TRPCError({ code: "BAD_REQUEST", message: "until must be in the future" });
      const result = await ctx.plans.setWalletPlan({ ...input, by: ctx.operator.actor, now });
      if (result === "not_found")
        throw new TRPCError({ code: "NOT_FOUND", message: `No plan has the id ${input.planId}` });
      if (result === "archived")
        throw new TRPCError({ code: "CONFLICT", message: `The plan ${input.planId} is archived` });
      return { wallet: input.wallet, plan: result };
    }),

  walletPlan: operatorProcedure("wallets:read")
    .meta(
      openApiMeta(operatorPlansHttp.walletPlan, {
        tags: ["operator"],
        summary: "A wallet's plan",
        description: operatorPlansDescriptions.walletPlan,
      }),
    )
    .input(getWalletAccountInput)
    .output(walletAccount)
    .query(async ({ ctx, input }) => {
      const [plan, suspended] = await Promise.all([
        ctx.plans.viewOfWallet(input.wallet, new Date()),
        ctx.plans.isSuspended(input.wallet),
      ]);
      return { wallet: input.wallet, plan, balance: null, suspended };
    }),
});
