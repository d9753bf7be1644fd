import { z } from "zod";
import {
  keyId,
  nextCursor,
  pageCursor,
  pageLimit,
  timestamp,
  timestampInput,
  wallet,
  walletInput,
} from "./common.js";

/** Longest range the operator's payment routes read at once. */
export const MAX_PAYMENT_RANGE_DAYS = 366;

const range = {
  from: timestampInput.optional().meta({ description: "Inclusive; default `to` minus 30 days" }),
  to: timestampInput.optional().meta({ description: "Exclusive; default now" }),
};

/** What a payment bought: `top_up`, credits for a key; `plan`, days of a plan for the wallet. */
export const paymentKind = z
  .enum(["top_up", "plan"])
  .meta({ description: "What was bought: `top_up` (a key's credits) or `plan` (days of a plan)" });

export type PaymentKind = z.infer<typeof paymentKind>;

/** A settled payment as the operator sees it (docs/operator.md#payments). */
export const operatorPayment = z
  .object({
    id: z.string().meta({ description: "The payment's id" }),
    settledAt: timestamp.meta({ description: "When it was settled (credited payments: when credited)" }),
    status: z.enum(["settled", "credited"]),
    kind: paymentKind,
    wallet,
    keyId: keyId.nullable().meta({ description: "The key a top-up credited; null for a plan" }),
    payer: z.string().meta({ description: "The paying address (the authorization's `from`), lowercase" }),
    amount: z.string().meta({ description: "Whole tokens, as a decimal string" }),
    baseUnits: z.string().meta({ description: "The amount in the token's base units, as a decimal string" }),
    asset: z.string(),
    network: z.string().meta({ description: "CAIP-2 network, e.g. `eip155:8453`" }),
    credits: z.number().int(),
    planId: z
      .string()
      .nullable()
      .meta({ description: "The plan a `plan` payment bought; null for a top-up" }),
    days: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Days of the plan a `plan` payment bought; null for a top-up" }),
    transaction: z.string().nullable(),
  })
  .meta({ id: "OperatorPayment" });

export type OperatorPaymentView = z.infer<typeof operatorPayment>;

export const listPaymentsInput = z
  .object({
    ...range,
    wallet: walletInput.optional().meta({ description: "Only this wallet's payments" }),
    kind: paymentKind.optional().meta({ description: "Only payments of this kind" }),
    limit: pageLimit,
    cursor: pageCursor,
  })
  .optional();

export const listPaymentsOutput = z.object({ payments: z.array(operatorPayment), nextCursor });

export const paymentTotalsInput = z
  .object({ ...range, kind: paymentKind.optional().meta({ description: "Only payments of this kind" }) })
  .optional();

const total = z.object({
  network: z.string(),
  asset: z.string(),
  baseUnits: z
    .string()
    .meta({ description: "Sum of the amounts in base units, as a decimal string (exact)" }),
  payments: z.number().int(),
  credits: z.number().int(),
});

export const paymentTotalsOutput = z.object({
  from: timestamp,
  to: timestamp,
  totals: z.array(total).meta({ description: "One row per (network, asset) over the whole range" }),
  days: z
    .array(total.extend({ day: z.string().meta({ description: "The UTC day, YYYY-MM-DD" }) }))
    .meta({ description: "One row per UTC day and (network, asset) that had payments, oldest first" }),
});

export const paymentsCsvInput = z.object({
  ...range,
  kind: paymentKind.optional().meta({ description: "Only payments of this kind" }),
});
