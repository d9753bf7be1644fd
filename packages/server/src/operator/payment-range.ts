import { TRPCError } from "@trpc/server";
import { MAX_PAYMENT_RANGE_DAYS, type PaymentKind } from "../schemas/operator-payments.js";
import type { PaymentRange } from "./payment-ledger.js";

const DAY_MS = 86_400_000;
/** Without `from`, the payment routes read the 30 days before `to`. */
const DEFAULT_RANGE_MS = 30 * DAY_MS;

/**
 * The range a payment route reads: `from` inclusive (default `to` minus 30 days), `to` exclusive
 * (default now); `from` must be before `to` and the range at most 366 days, else 400. `kind`, when
 * given, keeps payments of that kind only.
 */
export function paymentRangeOf(
  input: { from?: Date | undefined; to?: Date | undefined; kind?: PaymentKind | undefined } | undefined,
): PaymentRange {
  const to = input?.to ?? new Date();
  const from = input?.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
  if (from >= to) throw new TRPCError({ code: "BAD_REQUEST", message: "from must be before to" });
  if (to.getTime() - from.getTime() > MAX_PAYMENT_RANGE_DAYS * DAY_MS) {
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: `A payment range spans at most ${MAX_PAYMENT_RANGE_DAYS} days`,
    });
  }
  return { from, to, kind: input?.kind };
}
