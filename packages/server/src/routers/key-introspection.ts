import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { RetryAfter } from "../ratelimit/retry-after.js";
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
      description:
        "No session: the key is the credential. Answers the key's `status` (active, revoked or expired: both of the latter answer 200 too), `expiresAt`, `ratelimit` (the binding window, the key's or its wallet's, as the next verification will find it: `remaining` counts that verification too), `credits` (the balance now, a refill due shown but not applied; `purchased` is the part bought by top-ups) and `topUpUrl` (where to buy credits; null while payments are off or the key is not an active metered key). Spends no credits, takes nothing from any rate-limit window, counts no usage, records no event and leaves `lastUsedAt` alone. An unknown, malformed or checksum-failing key is 404, the same answer for each. Each client address (an IPv6 /64) gets at most NONCE_RATE_LIMIT introspections (default 10 a minute, a budget of its own); past it 429 `TOO_MANY_REQUESTS` with `Retry-After` in seconds. 400 when the body is not `{ key }` (a string of at most 256 characters). Answers carry `Cache-Control: no-store`.",
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
