import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { createKeyOutput, revokeKeyOutput } from "../../schemas/api-key.js";
import { operatorKeysDescriptions } from "../../schemas/descriptions/operator-keys.js";
import { issueKeyInput, revokeAnyKeyInput } from "../../schemas/operator.js";
import { operatorProcedure, router } from "../../trpc.js";
import { createKeyFor } from "../key-create.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const operatorKeysHttp = {
  revoke: {
    method: "POST",
    path: "/operator/keys/{id}/revoke",
    successStatus: 200,
    errors: [401, 403, 404, 413, 415],
    security: "operator",
    requires: "keys:write",
  },
  issue: {
    method: "POST",
    path: "/operator/wallets/{wallet}/keys",
    successStatus: 201,
    errors: [401, 403, 409, 413, 415],
    security: "operator",
    requires: "keys:issue",
  },
} as const satisfies Record<string, HttpPolicy>;

/** The operator's hand on any wallet's keys (docs/operator.md#keys). */
export const operatorKeysRouter = router({
  revoke: operatorProcedure("keys:write")
    .meta(
      openApiMeta(operatorKeysHttp.revoke, {
        tags: ["operator"],
        summary: "Revoke any wallet's key",
        description:
          'Revokes the key now, whoever holds it, with a `reason` (1-500 characters). Every instance stops verifying it within about a second. The wallet\'s trail and webhooks get `key.revoked` with `actor: "operator"` and the reason (never who the operator is); the operator trail gets `key.revoked` with the actor. A key already revoked is answered as it is and records nothing; an unknown id is 404. Scope `keys:write`.',
      }),
    )
    .input(revokeAnyKeyInput)
    .output(revokeKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const apiKey = await ctx.keys.revokeAsOperator({
        id: input.id,
        now: new Date(),
        by: { actor: ctx.operator.actor, reason: input.reason },
      });
      if (apiKey === null) throw new TRPCError({ code: "NOT_FOUND", message: "No such key" });
      return { apiKey };
    }),

  issue: operatorProcedure("keys:issue")
    .meta(
      openApiMeta(operatorKeysHttp.issue, {
        tags: ["operator"],
        summary: "Issue a key to a wallet",
        description: operatorKeysDescriptions.issue,
      }),
    )
    .input(issueKeyInput)
    .output(createKeyOutput)
    .mutation(({ ctx, input }) =>
      createKeyFor(ctx, input.wallet, input, { actor: ctx.operator.actor, reason: input.reason ?? null }),
    ),
});
