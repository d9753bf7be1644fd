import { z } from "zod";
import { keyId, timestamp, timestampInput, wallet } from "./common.js";
import { usageCounts } from "./usage.js";

export const deploymentUsageInput = z
  .object({
    from: timestampInput
      .optional()
      .meta({ description: "Inclusive; default `to` minus 30 days. Widened to the start of its UTC day." }),
    to: timestampInput.optional().meta({
      description: "Exclusive; default now. Widened to the end of the UTC day holding its last instant.",
    }),
  })
  .optional();

export const deploymentUsageOutput = z.object({
  from: timestamp,
  to: timestamp,
  totals: usageCounts,
  series: z
    .array(usageCounts.extend({ start: timestamp }))
    .meta({ description: "One entry per UTC day of the range, zero-filled" }),
  topWallets: z
    .array(usageCounts.extend({ wallet }))
    .meta({ description: "The 10 wallets with the most verifications in the range, most first" }),
  topKeys: z
    .array(usageCounts.extend({ keyId, wallet, name: z.string() }))
    .meta({ description: "The 10 keys with the most verifications in the range, most first" }),
});
