import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { RetryAfter } from "../ratelimit/retry-after.js";
import { introspectDescription } from "../schemas/descriptions/key-introspection.js";
import { introspection, introspectKeyInput } from "../schemas/introspection.js";
import { publicProcedure } from "../trpc.js";

/** How `keys.introspect` is served as REST (see routers/rest.ts). */
export const introspectHttp = {
  method: "POST",
  path: "/api-keys/introspect",
  successStatus: 200,
  errors: [404, 413, 415, 429],
  security: "public",
  cacheControl: "no-store",
} as const satisfies HttpPolicy;

// One answer for unknown, malformed and checksum-failing keys alike.
const NO_SUCH_KEY = "No such key";

/** `keys.introspect`: a key's own state for whoever holds it, spending nothing (docs/verifying-keys.md). */
export const introspectKey = publicProcedure
  .meta(
    openApiMeta(introspectHttp, {
      tags: ["keys"],
      summary: "Describe a key to its holder, spending nothing",
      description: introspectDescription,
    }),
  )
  .input(introspectKeyInput)
  .output(introspection)
  .mutation(async ({ ctx, input }) => {
    const answer = await ctx.introspection.introspect(input.key, ctx.clientIp());
    if (answer.ok) return answer.introspection;
    if (answer.reason === "not_found") throw new TRPCError({ code: "NOT_FOUND", message: NO_SUCH_KEY });
    const seconds = answer.retryAfterSeconds;
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: `Too many introspections from this address: try again in ${seconds} s`,
      cause: new RetryAfter(seconds),
    });
  });
