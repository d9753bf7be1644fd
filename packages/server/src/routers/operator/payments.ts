import { TRPCError } from "@trpc/server";
import { paymentRangeOf } from "../../operator/payment-range.js";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
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
        description:
          "Every payment settled (or settled and credited) in the range, newest first: wallet, key, payer, amount (whole tokens and base units), asset, network, credits and transaction. `from` inclusive (default 30 days before `to`), `to` exclusive (default now), at most 366 days; `wallet` keeps one wallet's. Paginated: `limit` 1-100 (default 50), `nextCursor` back as `cursor` with the same filters. The same rows as a CSV file: `GET /operator/payments.csv`. Scope `payments:read`.",
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
        description:
          "Settled payments in the range summed per (network, asset): over the whole range and per UTC day (days without payments are left out). Amounts are exact decimal strings in the token's base units. Range as the list's. Scope `payments:read`.",
      }),
    )
    .input(paymentTotalsInput)
    .output(paymentTotalsOutput)
    .query(({ ctx, input }) => ctx.operators.paymentTotals(paymentRangeOf(input))),
});
