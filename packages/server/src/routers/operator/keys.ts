import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { revokeKeyOutput } from "../../schemas/api-key.js";
import { revokeAnyKeyInput } from "../../schemas/operator.js";
import { operatorProcedure, router } from "../../trpc.js";

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
});
