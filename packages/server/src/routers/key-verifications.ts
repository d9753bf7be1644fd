import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { keyVerificationsDescription } from "../schemas/descriptions/key-verifications.js";
import { keyVerificationsInput, keyVerificationsOutput } from "../schemas/key-verifications.js";
import { sessionProcedure } from "../trpc.js";

/** How `keys.verifications` is served as REST (see routers/rest.ts). */
export const keyVerificationsHttp = {
  method: "GET",
  path: "/api-keys/{id}/verifications",
  successStatus: 200,
  errors: [401, 404],
  security: "session",
} as const satisfies HttpPolicy;

/** `keys.verifications`: a key's last verifications for its owner's session (docs/decisions.md, "Recent verifications"). */
export const keyVerifications = sessionProcedure
  .meta(
    openApiMeta(keyVerificationsHttp, {
      tags: ["keys"],
      summary: "A key's recent verifications",
      description: keyVerificationsDescription,
    }),
  )
  .input(keyVerificationsInput)
  .output(keyVerificationsOutput)
  .query(async ({ ctx, input }) => {
    const verifications = await ctx.usage.recentVerifications(ctx.wallet, input.id);
    if (verifications === null) throw new TRPCError({ code: "NOT_FOUND", message: "No such key" });
    return { verifications };
  });
