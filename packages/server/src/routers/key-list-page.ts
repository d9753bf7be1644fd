import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Context } from "../context.js";
import { decodeCursor } from "../keys/cursor.js";
import type { listKeysInput } from "../schemas/api-key.js";

/**
 * One page of a wallet's keys as `GET /api-keys/{wallet}` answers it, for the owner and the operator
 * alike: a cursor this server did not issue, or issued for another sort or order, is 400.
 */
export async function listKeysPage(
  ctx: Pick<Context, "keys" | "plans">,
  wallet: string,
  input: Omit<z.output<typeof listKeysInput>, "wallet">,
) {
  const cursor = input.cursor === undefined ? null : decodeCursor(input.cursor);
  if (input.cursor !== undefined && cursor === null) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "cursor is not one this server issued" });
  }
  if (cursor !== null && (cursor.sort !== input.sort || cursor.order !== input.order)) {
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: "cursor was issued for another sort or order: pass the same sort and order as its first page",
    });
  }
  const now = new Date();
  const [page, plan] = await Promise.all([
    ctx.keys.list({
      wallet,
      status: input.status,
      q: input.q,
      sort: input.sort,
      order: input.order,
      limit: input.limit,
      cursor,
      now,
    }),
    ctx.plans.ofWallet(wallet, now),
  ]);
  return { ...page, activeKeyCap: plan.row.maxActiveKeys ?? ctx.keys.maxActiveKeys };
}
