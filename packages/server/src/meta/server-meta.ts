import type { Env } from "../env.js";
import { paymentSettingsOf } from "../payments/settings.js";
import type { ServerMeta } from "../schemas/meta.js";

/**
 * The public facts of this server's setup (`GET /meta`), fixed for the process's life: whether
 * payments are on and on which token, and the chains sign-in accepts. None of them is secret.
 */
export function serverMetaOf(env: Env): ServerMeta {
  const payments = paymentSettingsOf(env);
  return {
    payments:
      payments === null
        ? null
        : {
            network: payments.network,
            asset: payments.asset,
            decimals: payments.decimals,
            creditsPerToken: payments.creditsPerToken,
            min: payments.minText,
            max: payments.maxText,
          },
    chainIds: [...env.SIWE_CHAIN_IDS],
  };
}
