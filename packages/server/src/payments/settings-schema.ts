import { isAddress } from "viem";
import { z } from "zod";
import { toBaseUnits } from "./amount.js";

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

const address = optionalText.refine(
  (value) => value === undefined || isAddress(value, { strict: false }),
  "must be a 0x-prefixed 20-byte hex address",
);

/**
 * The payment settings (docs/payments.md), each optional on its own: `paymentIssues` says which are
 * required once PAYMENTS_NETWORK turns payments on. Part of env.ts's schema.
 */
export const paymentSettings = {
  /** CAIP-2 id of an EVM chain (`eip155:<chain id>`); unset turns payments off. */
  PAYMENTS_NETWORK: optionalText.refine(
    (value) => value === undefined || /^eip155:[1-9]\d{0,15}$/.test(value),
    "must be a CAIP-2 EVM chain id such as eip155:8453",
  ),
  PAYMENTS_RPC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  PAYMENTS_ASSET: address,
  PAYMENTS_ASSET_NAME: z.string().min(1).default("USD Coin"),
  PAYMENTS_ASSET_VERSION: z.string().min(1).default("2"),
  PAYMENTS_ASSET_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  PAYMENTS_PAY_TO: address,
  PAYMENTS_CREDITS_PER_TOKEN: z.coerce.number().int().positive().max(1_000_000_000).default(1000),
  PAYMENTS_MIN: z.string().trim().default("1"),
  PAYMENTS_MAX: z.string().trim().default("1000"),
  PAYMENTS_FACILITATOR_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** Never echoed: a bad value is named, not quoted. */
  PAYMENTS_SETTLER_PRIVATE_KEY: optionalText.refine(
    (value) => value === undefined || /^0x[0-9a-fA-F]{64}$/.test(value),
    "must be a 0x-prefixed 32-byte hex private key",
  ),
  PAYMENTS_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(1),
};

type PaymentFields = {
  [K in keyof typeof paymentSettings]?: z.output<(typeof paymentSettings)[K]>;
} & {
  PAYMENTS_ASSET_DECIMALS: number;
  PAYMENTS_MIN: string;
  PAYMENTS_MAX: string;
};

/** One problem with the payment settings: which setting, and why. */
export interface PaymentIssue {
  path: string[];
  message: string;
}

/** The rules across the payment settings: with PAYMENTS_NETWORK set, the rest must make a whole. */
export function paymentIssues(env: PaymentFields): PaymentIssue[] {
  if (env.PAYMENTS_NETWORK === undefined) return [];
  const issues: PaymentIssue[] = [];
  const required = ["PAYMENTS_RPC_URL", "PAYMENTS_ASSET", "PAYMENTS_PAY_TO"] as const;
  for (const name of required) {
    if (env[name] === undefined)
      issues.push({ path: [name], message: "is required when PAYMENTS_NETWORK is set" });
  }
  const byUrl = env.PAYMENTS_FACILITATOR_URL !== undefined;
  const byKey = env.PAYMENTS_SETTLER_PRIVATE_KEY !== undefined;
  if (byUrl === byKey) {
    issues.push({
      path: ["PAYMENTS_FACILITATOR_URL"],
      message: "set exactly one of PAYMENTS_FACILITATOR_URL and PAYMENTS_SETTLER_PRIVATE_KEY",
    });
  }
  const decimals = env.PAYMENTS_ASSET_DECIMALS;
  const min = toBaseUnits(env.PAYMENTS_MIN, decimals);
  const max = toBaseUnits(env.PAYMENTS_MAX, decimals);
  const bound = `must be a decimal number of whole tokens with at most ${decimals} places`;
  if (min === null || min === 0n) issues.push({ path: ["PAYMENTS_MIN"], message: `${bound}, above 0` });
  if (max === null) issues.push({ path: ["PAYMENTS_MAX"], message: bound });
  if (min !== null && max !== null && min > max) {
    issues.push({ path: ["PAYMENTS_MAX"], message: "must be at least PAYMENTS_MIN" });
  }
  return issues;
}
