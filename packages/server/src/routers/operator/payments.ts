import { TRPCError } from "@trpc/server";
import { paymentRangeOf } from "../../operator/payment-range.js";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { operatorPaymentsDescriptions } from "../../schemas/descriptions/operator-payments.js";
import {
  listPaymentsInput,
  listPaymentsOutput,
  paymentTotalsInput,
  paymentTotalsOutput,
} from "../../schemas/operator-payments.js";
import { operatorProcedure, router } from "../../trpc.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const operatorPaymentsHttp = {
  list: {
    method: "GET",
    path: "/operator/payments",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "payments:read",
  },
  totals: {
    method: "GET",
    path: "/operator/payments/totals",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "payments:read",
  },
} as const satisfies Record<string, HttpPolicy>;

/** The deployment's revenue (docs/operator.md#payments). */
export const operatorPaymentsRouter = router({
  list: operatorProcedure("payments:read")
    .meta(
      openApiMeta(operatorPaymentsHttp.list, {
        tags: ["operator"],
        summary: "List settled payments",
        description: operatorPaymentsDescriptions.list,
      }),
    )
    .input(listPaymentsInput)
    .output(listPaymentsOutput)
    .query(async ({ ctx, input }) => {
      const page = await ctx.operators.listPayments({
        range: paymentRangeOf(input),
        wallet: input?.wallet,
        limit: input?.limit ?? 50,
        cursor: input?.cursor,
      });
      if (page === null)
        throw new TRPCError({ code: "BAD_REQUEST", message: "cursor is not one this server issued" });
      return page;
    }),

  totals: operatorProcedure("payments:read")
    .meta(
      openApiMeta(operatorPaymentsHttp.totals, {
        tags: ["operator"],
        summary: "Revenue totals",
        description: operatorPaymentsDescriptions.totals,
      }),
    )
    .input(paymentTotalsInput)
    .output(paymentTotalsOutput)
    .query(({ ctx, input }) => ctx.operators.paymentTotals(paymentRangeOf(input))),
});
