import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { operatorAuditDescriptions } from "../../schemas/descriptions/operator-audit.js";
import { listOperatorEventsInput, listOperatorEventsOutput } from "../../schemas/operator.js";
import { operatorProcedure, router } from "../../trpc.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const operatorAuditHttp = {
  list: {
    method: "GET",
    path: "/operator/events",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "wallets:read",
  },
} as const satisfies Record<string, HttpPolicy>;

/** The operator audit trail. */
export const operatorAuditRouter = router({
  list: operatorProcedure("wallets:read")
    .meta(
      openApiMeta(operatorAuditHttp.list, {
        tags: ["operator"],
        summary: "List the operator audit trail",
        description: operatorAuditDescriptions.list,
      }),
    )
    .input(listOperatorEventsInput)
    .output(listOperatorEventsOutput)
    .query(async ({ ctx, input }) => {
      const page = await ctx.operators.listEvents({
        limit: input?.limit ?? 50,
        cursor: input?.cursor,
        wallet: input?.wallet,
      });
      if (page === null)
        throw new TRPCError({ code: "BAD_REQUEST", message: "cursor is not one this server issued" });
      return page;
    }),
});
