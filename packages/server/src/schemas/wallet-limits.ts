import { z } from "zod";
import { rateLimit } from "./api-key.js";
import { walletInput } from "./common.js";

/** A wallet's limits as GET and PUT answer them; `rateLimit` null when the wallet has none. */
export const walletLimits = z
  .object({
    rateLimit: rateLimit.nullable().meta({
      description:
        "One window shared by all of the wallet's keys, checked after each key's own; null when the wallet has none",
    }),
  })
  .meta({ id: "WalletLimits" });

/** Input of `limits.get`. */
export const getWalletLimitsInput = z.object({ wallet: walletInput });

/** Input of `limits.set`: the whole new state; `rateLimit: null` removes the limit. */
export const setWalletLimitsInput = z.object({
  wallet: walletInput,
  rateLimit: rateLimit.nullable().meta({
    description: "Same bounds as a key's rate limit; null removes the wallet-wide limit",
  }),
});

export type WalletLimits = z.infer<typeof walletLimits>;
