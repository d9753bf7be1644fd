import { TRPCError } from "@trpc/server";
import type { Context } from "../context.js";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { usageDescriptions } from "../schemas/descriptions/usage.js";
import { type UsageInput, usage, usageInput } from "../schemas/usage.js";
import { router, sessionProcedure } from "../trpc.js";
import { batchUsageCells, isUsageBatch, MAX_BATCH_USAGE_CELLS } from "../usage/batch-cost.js";
import { DEFAULT_RANGE_MS, resolveUsageRange } from "../usage/series.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const usageHttp = {
  get: {
    method: "GET",
    path: "/api-keys/{wallet}/usage",
    successStatus: 200,
    errors: [401, 403, 404],
    security: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

/** Usage statistics of the session's wallet, read from the hourly rollups. */
export const usageRouter = router({
  get: sessionProcedure
    .meta(
      openApiMeta(usageHttp.get, {
        tags: ["usage"],
        summary: "Usage statistics of a wallet's keys",
        description: usageDescriptions.get,
      }),
    )
    .input(usageInput)
    .output(usage)
    .query(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) {
        throw new TRPCError({ code: "FORBIDDEN", message: "A session can only read its own wallet's usage" });
      }
      usageRangeOf(input);
      // Every call of an oversized batch fails alike, so the whole batch is 400.
      if (
        isUsageBatch(ctx.batchCalls) &&
        (await batchUsageCells(ctx.batchCalls, ctx.wallet, (wallet) => ctx.usage.countKeys(wallet))) >
          MAX_BATCH_USAGE_CELLS
      ) {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `The usage queries of one batch may ask for at most ${MAX_BATCH_USAGE_CELLS} buckets × keys together`,
        });
      }
      return readWalletUsage(ctx, ctx.wallet, input);
    }),
});

/** The range of a usage query, widened to whole buckets and bounded (400 otherwise). */
export function usageRangeOf(input: Pick<UsageInput, "from" | "to" | "granularity">) {
  const to = input.to ?? new Date();
  const from = input.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
  const resolved = resolveUsageRange(from, to, input.granularity);
  if (!resolved.ok) throw new TRPCError({ code: "BAD_REQUEST", message: resolved.message });
  return resolved.range;
}

/**
 * A wallet's usage as `GET /api-keys/{wallet}/usage` answers it, for the owner and the operator alike
 * (a `keyId` that is not the wallet's is 404).
 */
export async function readWalletUsage(
  ctx: Pick<Context, "usage">,
  wallet: string,
  input: Omit<UsageInput, "wallet">,
) {
  const answer = await ctx.usage.read({ wallet, range: usageRangeOf(input), keyId: input.keyId ?? null });
  if (!answer) throw new TRPCError({ code: "NOT_FOUND", message: "No such key" });
  return answer;
}
