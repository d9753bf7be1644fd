import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import {
  keyVerificationsInput,
  keyVerificationsOutput,
  RECENT_VERIFICATIONS_KEPT,
} from "../schemas/key-verifications.js";
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
      description: `The key's last ${RECENT_VERIFICATIONS_KEPT} verifications at most, newest first: when (\`at\`), the \`outcome\` (the code usage counts), the \`permissions\` and \`cost\` the request asked (cost default 1) and the client \`ip\` it gave (null when none); never the key or its hash. Unknown keys record nothing, and with USAGE_RECORDING=off nothing is recorded. They are written with the usage counts every USAGE_FLUSH_INTERVAL_MS (default 1 s), so the latest second may not show yet; older ones are deleted by the same write. Another wallet's key is 404.`,
    }),
  )
  .input(keyVerificationsInput)
  .output(keyVerificationsOutput)
  .query(async ({ ctx, input }) => {
    const verifications = await ctx.usage.recentVerifications(ctx.wallet, input.id);
    if (verifications === null) throw new TRPCError({ code: "NOT_FOUND", message: "No such key" });
    return { verifications };
  });
