import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { MAX_TIMEOUT_SECONDS, type PaymentSettings } from "./settings.js";

/**
 * What Keyport accepts for a top-up of `baseUnits`: x402 v2's `exact` scheme on the configured
 * network and token, paid to PAYMENTS_PAY_TO (docs/payments.md).
 */
export function topUpRequirement(settings: PaymentSettings, baseUnits: bigint): PaymentRequirements {
  return {
    scheme: "exact",
    network: settings.network,
    amount: baseUnits.toString(),
    asset: settings.asset,
    payTo: settings.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { name: settings.assetName, version: settings.assetVersion },
  };
}

/** The x402 v2 answer to an unpaid request for `resource`, and its base64 `PAYMENT-REQUIRED` header. */
export function paymentRequired(
  resource: string,
  requirement: PaymentRequirements,
  error: string,
): { body: PaymentRequired; header: string } {
  const body: PaymentRequired = {
    x402Version: 2,
    error,
    resource: { url: resource, description: "Credits for a Keyport API key", mimeType: "application/json" },
    accepts: [requirement],
  };
  return { body, header: encodePaymentRequiredHeader(body) };
}
