import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { operatorUsageDescriptions } from "../../schemas/descriptions/operator-usage.js";
import { deploymentUsageInput, deploymentUsageOutput } from "../../schemas/operator-usage.js";
import { operatorProcedure, router } from "../../trpc.js";
import { DEFAULT_RANGE_MS, resolveUsageRange } from "../../usage/series.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const operatorUsageHttp = {
  get: {
    method: "GET",
    path: "/operator/usage",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "usage:read",
  },
} as const satisfies Record<string, HttpPolicy>;

/** Verifications across the deployment (docs/operator.md#usage). */
export const operatorUsageRouter = router({
  get: operatorProcedure("usage:read")
    .meta(
      openApiMeta(operatorUsageHttp.get, {
        tags: ["operator"],
        summary: "Usage across the deployment",
        description: operatorUsageDescriptions.get,
      }),
    )
    .input(deploymentUsageInput)
    .output(deploymentUsageOutput)
    .query(async ({ ctx, input }) => {
      const to = input?.to ?? new Date();
      const from = input?.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
      const resolved = resolveUsageRange(from, to, "day");
      if (!resolved.ok) throw new TRPCError({ code: "BAD_REQUEST", message: resolved.message });
      return ctx.operators.deploymentUsage(resolved.range);
    }),
});
