import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { PaymentSettings } from "./settings.js";
import { SettlementUnavailableError, type Settler } from "./settler.js";

/**
 * Settles in this process: @x402/evm's `exact` facilitator scheme, registered for the configured
 * network in @x402/core's facilitator, sends `transferWithAuthorization` from the settler account
 * behind `signer` (which pays the gas). A thrown error is unavailable; a refusal keeps its reason.
 */
export function createInProcessSettler(settings: PaymentSettings, signer: FacilitatorEvmSigner): Settler {
  const facilitator = new x402Facilitator().register(settings.network, new ExactEvmScheme(signer));
  return {
    async verify(payload, requirement) {
      try {
        const answer = await facilitator.verify(payload, requirement);
        return answer.isValid
          ? { ok: true }
          : { ok: false, reason: answer.invalidReason ?? "invalid_payment" };
      } catch (error) {
        throw new SettlementUnavailableError(error);
      }
    },
    async settle(payload, requirement) {
      try {
        const answer = await facilitator.settle(payload, requirement);
        if (answer.success && answer.transaction !== "") return { ok: true, transaction: answer.transaction };
        return { ok: false, reason: answer.errorReason ?? "settlement_failed" };
      } catch (error) {
        throw new SettlementUnavailableError(error);
      }
    },
  };
}
