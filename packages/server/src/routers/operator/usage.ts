import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
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
        description:
          "Every wallet's verifications by UTC day and outcome over the range (zero-filled), the totals, and the 10 wallets and 10 keys with the most verifications, most first, each with its counts by outcome. `from` inclusive (default 30 days before `to`), `to` exclusive (default now), widened to whole UTC days, at most 366 days. Read from the daily rollups, written every USAGE_FLUSH_INTERVAL_MS. Scope `usage:read`.",
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
