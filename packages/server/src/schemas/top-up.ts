import { z } from "zod";
import { apiKey } from "./api-key.js";
import { keyId } from "./common.js";
import { storedText } from "./stored-text.js";

/** A top-up amount in whole tokens as a decimal string; its bounds are checked after the key (docs/payments.md). */
const amount = storedText.max(64).meta({
  description: "Whole tokens (USDC), a decimal string within PAYMENTS_MIN..PAYMENTS_MAX",
  example: "5",
});

export const topUpQuoteInput = z.object({ id: keyId, amount });

export const topUpInput = z.object({
  id: keyId,
  amount,
  payment: storedText.max(16_384).optional().meta({
    description:
      "The base64 x402 PaymentPayload (what PAYMENT-SIGNATURE carries), for tRPC callers; REST sends the header",
  }),
});

/** The x402 v2 payment requirement a top-up of that amount must pay exactly. */
export const paymentRequirement = z
  .object({
    scheme: z.literal("exact"),
    network: z.string().meta({ description: "CAIP-2 chain id", example: "eip155:8453" }),
    amount: z
      .string()
      .meta({ description: "Base units of the token (USDC: millionths)", example: "5000000" }),
    asset: z.string().meta({ description: "The EIP-3009 token's address" }),
    payTo: z.string().meta({ description: "The operator's address that receives the payment" }),
    maxTimeoutSeconds: z.number().int(),
    extra: z
      .object({ name: z.string(), version: z.string() })
      .meta({ description: "The token's EIP-712 domain" }),
  })
  .meta({ id: "PaymentRequirement" });

export const topUpQuoteOutput = z.object({
  amount: z.string(),
  credits: z.number().int().meta({ description: "Credits the payment adds" }),
  requirement: paymentRequirement,
});

export const topUp = z
  .object({
    amount: z.string().meta({ description: "The amount paid, in whole tokens, as sent" }),
    credits: z.number().int().meta({ description: "Credits added" }),
    payer: z.string().meta({ description: "The address that paid (lowercase)" }),
    transaction: z.string().meta({ description: "The settlement's transaction hash" }),
    network: z.string(),
  })
  .meta({ id: "TopUp" });

export const topUpOutput = z.object({ apiKey, topUp });

export type TopUpQuoteOutput = z.infer<typeof topUpQuoteOutput>;
