import { z } from "zod";
import { keyId, timestamp, timestampInput, wallet, walletInput } from "./common.js";

/** Query of usage.get. */
export const usageInput = z.object({
  wallet: walletInput,
  from: timestampInput
    .optional()
    .meta({ description: "Inclusive; default `to` minus 30 days. Widened to the start of its UTC bucket." }),
  to: timestampInput.optional().meta({
    description: "Exclusive; default now. Widened to the end of the UTC bucket holding its last instant.",
  }),
  granularity: z.enum(["hour", "day"]).default("day"),
  keyId: keyId.optional().meta({ description: "Only this key (it must belong to the wallet, else 404)" }),
});

const counts = {
  requests: z.number().int().meta({ description: "Sum of the outcomes below" }),
  valid: z.number().int(),
  rateLimited: z.number().int(),
  expired: z.number().int(),
  revoked: z.number().int(),
  insufficientPermissions: z.number().int(),
  usageExceeded: z.number().int(),
  ipNotAllowed: z
    .number()
    .int()
    .meta({ description: "Refused: the key's allowedIps does not hold the client's ip" }),
  walletSuspended: z.number().int().meta({
    description:
      "Refused: the deployment's operator suspended the key's wallet (docs/operator.md#suspension)",
  }),
};

/** Verifications by outcome. */
export const usageCounts = z.object(counts).meta({ id: "UsageCounts" });

/** `Usage` in docs/api.md. */
export const usage = z
  .object({
    wallet,
    from: timestamp.meta({ description: "Start of the first bucket (the requested from, widened)" }),
    to: timestamp.meta({ description: "End of the last bucket (the requested to, widened)" }),
    granularity: z.enum(["hour", "day"]),
    totals: usageCounts,
    keys: z
      .array(z.object({ keyId, name: z.string(), ...counts }))
      .meta({ description: "Keys with any usage in the range (and the filtered key), most requests first" }),
    series: z
      .array(z.object({ start: timestamp, ...counts }))
      .meta({ description: "One entry per bucket in the range, zero-filled" }),
  })
  .meta({ id: "Usage" });

export type Usage = z.infer<typeof usage>;
export type UsageInput = z.infer<typeof usageInput>;
export type UsageCounts = z.infer<typeof usageCounts>;
