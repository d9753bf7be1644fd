import { z } from "zod";

/** What a top-up answered, kept with its payment and given again to a replay of it. */
export const storedAnswer = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("credited"),
    topUp: z.object({
      amount: z.string(),
      credits: z.number(),
      payer: z.string(),
      transaction: z.string(),
      network: z.string(),
    }),
    /** The base64 x402 `PAYMENT-RESPONSE` (a settle response). */
    paymentResponse: z.string(),
  }),
  z.object({ kind: z.literal("refused"), message: z.string() }),
]);

export type StoredAnswer = z.infer<typeof storedAnswer>;

/** The stored answer of a payment row (jsonb), checked; undefined for one not answered yet. */
export function readAnswer(value: unknown): StoredAnswer | undefined {
  const parsed = storedAnswer.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
