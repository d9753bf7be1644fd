import { TRPCError } from "@trpc/server";
import { OperatorTokenCapReached } from "../../operator/token-store.js";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { operatorTokensDescriptions } from "../../schemas/descriptions/operator-tokens.js";
import {
  createOperatorTokenInput,
  createOperatorTokenOutput,
  listOperatorTokensInput,
  listOperatorTokensOutput,
  MAX_ACTIVE_OPERATOR_TOKENS,
  revokeOperatorTokenInput,
  revokeOperatorTokenOutput,
} from "../../schemas/operator.js";
import { operatorProcedure, router } from "../../trpc.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const operatorTokensHttp = {
  create: {
    method: "POST",
    path: "/operator/tokens",
    successStatus: 201,
    errors: [401, 403, 409, 413, 415],
    security: "operator",
    requires: "session",
  },
  list: {
    method: "GET",
    path: "/operator/tokens",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "session",
  },
  revoke: {
    method: "DELETE",
    path: "/operator/tokens/{id}",
    successStatus: 200,
    errors: [401, 403, 404],
    security: "operator",
    requires: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

/** Operator tokens: made, listed and revoked by an operator session only (no token mints tokens). */
export const operatorTokensRouter = router({
  create: operatorProcedure("session")
    .meta(
      openApiMeta(operatorTokensHttp.create, {
        tags: ["operator"],
        summary: "Create an operator token",
        description: operatorTokensDescriptions.create,
      }),
    )
    .input(createOperatorTokenInput)
    .output(createOperatorTokenOutput)
    .mutation(async ({ ctx, input }) => {
      try {
        return await ctx.operators.createToken(input, ctx.operator.actor);
      } catch (error) {
        if (!(error instanceof OperatorTokenCapReached)) throw error;
        throw new TRPCError({
          code: "CONFLICT",
          message: `This deployment holds ${MAX_ACTIVE_OPERATOR_TOKENS} live operator tokens, the most it may: revoke one first`,
        });
      }
    }),

  list: operatorProcedure("session")
    .meta(
      openApiMeta(operatorTokensHttp.list, {
        tags: ["operator"],
        summary: "List operator tokens",
        description: operatorTokensDescriptions.list,
      }),
    )
    .input(listOperatorTokensInput)
    .output(listOperatorTokensOutput)
    .query(async ({ ctx, input }) => {
      const page = await ctx.operators.listTokens({ limit: input?.limit ?? 50, cursor: input?.cursor });
      if (page === null)
        throw new TRPCError({ code: "BAD_REQUEST", message: "cursor is not one this server issued" });
      return page;
    }),

  revoke: operatorProcedure("session")
    .meta(
      openApiMeta(operatorTokensHttp.revoke, {
        tags: ["operator"],
        summary: "Revoke an operator token",
        description:
          "The token is refused from the next request on, on every instance. Idempotent: a revoked token answers as it is. An unknown id is 404. Recorded as `token.revoked`.",
      }),
    )
    .input(revokeOperatorTokenInput)
    .output(revokeOperatorTokenOutput)
    .mutation(async ({ ctx, input }) => {
      const token = await ctx.operators.revokeToken(input.id, ctx.operator.actor);
      if (token === null) throw new TRPCError({ code: "NOT_FOUND", message: "No such operator token" });
      return { token };
    }),
});
