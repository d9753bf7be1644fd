import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Context } from "../context.js";
import type { createKeyInput } from "../schemas/api-key.js";
import type { OperatorActor } from "../schemas/operator.js";
import { defaultLimitList } from "../schemas/rate-limits.js";
import { refuseKeyWritesWhenSuspended, requirePermissionsInPlan, walletBounds } from "./plan-bounds.js";

/**
 * Creates a key for `wallet` as `POST /api-keys` does, for the owner and for the operator issuing one
 * (`issuedBy`): `expiresAt` in the past is 400, the wallet's own create while it is suspended 403, permissions outside the wallet's plan 403 `PLAN_LIMIT`,
 * a wallet at its plan's active-key cap 409.
 */
export async function createKeyFor(
  ctx: Pick<Context, "keys" | "plans">,
  wallet: string,
  input: Omit<z.output<typeof createKeyInput>, "wallet">,
  issuedBy?: { actor: OperatorActor; reason: string | null },
) {
  const now = new Date();
  if (input.expiresAt !== undefined && input.expiresAt <= now) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "expiresAt must be in the future" });
  }
  const bounds = await walletBounds(ctx, wallet, now);
  // The operator may issue a key to a suspended wallet; the wallet itself may not create one.
  if (issuedBy === undefined) refuseKeyWritesWhenSuspended(bounds);
  const permissions = input.permissions ?? [];
  requirePermissionsInPlan(bounds, permissions);
  const created = await ctx.keys.create({
    wallet,
    name: input.name,
    expiresAt: input.expiresAt ?? null,
    rateLimits: input.rateLimits ?? defaultLimitList(input.rateLimit ?? null),
    permissions,
    credits: input.credits ?? null,
    meta: input.meta ?? null,
    allowedIps: input.allowedIps ?? null,
    issuedBy,
    maxActiveKeys: bounds.maxActiveKeys,
    now,
  });
  if (!created.ok) {
    throw new TRPCError({
      code: "CONFLICT",
      message: `This wallet already holds the maximum of ${created.max} active keys`,
    });
  }
  return { key: created.key, apiKey: created.apiKey };
}
