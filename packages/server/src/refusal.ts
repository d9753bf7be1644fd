import type { ErrorReason, RefusalReason } from "@keyport/errors";
import { TRPCError } from "@trpc/server";

/**
 * The cause a refusal with a reason carries (docs/api.md#errors): the error's `code` stays tRPC's code
 * name, and the edge (tRPC's error formatter, the REST envelope) adds `reason` and `details` from it.
 */
export class Refusal extends Error {
  override name = "Refusal";
  constructor(
    readonly reason: ErrorReason,
    readonly details?: Record<string, unknown>,
  ) {
    super(reason);
  }
}

/** The 4xx codes a refusal with a reason is thrown with. */
type RefusalCode = "FORBIDDEN" | "CONFLICT" | "BAD_REQUEST" | "PAYMENT_REQUIRED";

/**
 * A TRPCError whose answer names `reason` (and `details`) beside its code.
 * @example throw refuse("FORBIDDEN", "INSUFFICIENT_SCOPE", "This token lacks the scope wallets:read", { scope: "wallets:read" })
 */
export function refuse(
  code: RefusalCode,
  reason: ErrorReason,
  message: string,
  details?: Record<string, unknown>,
): TRPCError {
  return new TRPCError({ code, message, cause: new Refusal(reason, details) });
}

/** The reason and details a thrown error carries (a `Refusal`, or an error caused by one), if any. */
export function refusalOf(error: unknown): RefusalReason | undefined {
  const refusal = error instanceof Refusal ? error : error instanceof Error ? error.cause : undefined;
  if (!(refusal instanceof Refusal)) return undefined;
  return refusal.details === undefined
    ? { reason: refusal.reason }
    : { reason: refusal.reason, details: refusal.details };
}
