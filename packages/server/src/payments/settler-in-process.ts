import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { FacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { Hex } from "viem";
import { observeSigner } from "./observed-signer.js";
import type { PaymentSettings } from "./settings.js";
import { SettlementUnavailableError, type Settler } from "./settler.js";

/**
 * Settles in this process: @x402/evm's `exact` facilitator scheme, registered for the configured
 * network in @x402/core's facilitator, sends `transferWithAuthorization` from the settler account
 * behind `signer` (which pays the gas). A thrown error is unavailable; a refusal keeps its reason,
 * unless the node failed to answer a call meanwhile: then it is unavailable too (a 503, never a 402).
 *
 * Each call gets a facilitator over its own observed signer (observed-signer.ts), so that no
 * promise the library starts is left unobserved and its failures are counted per call. The asset is
 * checked here first, awaited: a node that cannot answer `eth_getCode` is a 503 before the library
 * sees the payment.
 */
export function createInProcessSettler(settings: PaymentSettings, signer: FacilitatorEvmSigner): Settler {
  // A deployed contract's code does not go away (the token is not self-destructible): one answer is enough.
  let assetCode: Hex | undefined;

  async function checkedAsset(): Promise<{ address: Hex; code: Hex } | null> {
    if (assetCode === undefined) {
      let code: Hex | undefined;
      try {
        code = await signer.getCode({ address: settings.asset });
      } catch (error) {
        throw new SettlementUnavailableError(error);
      }
      if (code === undefined || code === "0x") return null;
      assetCode = code;
    }
    return { address: settings.asset, code: assetCode };
  }

  /**
   * Runs `call` on a facilitator of its own. An answer `refused` calls a refusal is unavailable when
   * the node failed a call meanwhile: the refusal may be the library's reading of that failure.
   */
  async function withFacilitator<T>(
    call: (facilitator: x402Facilitator) => Promise<T>,
    refused: (answer: T) => boolean,
  ): Promise<T | "asset_not_deployed_contract"> {
    const asset = await checkedAsset();
    if (asset === null) return "asset_not_deployed_contract";
    const observed = observeSigner(signer, asset);
    const facilitator = new x402Facilitator().register(settings.network, new ExactEvmScheme(observed.signer));
    let answer: T;
    try {
      answer = await call(facilitator);
    } catch (error) {
      throw new SettlementUnavailableError(error);
    }
    const [failure] = observed.failures();
    if (failure !== undefined && refused(answer)) throw new SettlementUnavailableError(failure);
    return answer;
  }

  return {
    async verify(payload: PaymentPayload, requirement: PaymentRequirements) {
      const answer = await withFacilitator(
        (facilitator) => facilitator.verify(payload, requirement),
        (verified) => !verified.isValid,
      );
      if (answer === "asset_not_deployed_contract") return { ok: false, reason: answer };
      return answer.isValid ? { ok: true } : { ok: false, reason: answer.invalidReason ?? "invalid_payment" };
    },
    async settle(payload: PaymentPayload, requirement: PaymentRequirements) {
      const answer = await withFacilitator(
        (facilitator) => facilitator.settle(payload, requirement),
        (settled) => !settled.success || settled.transaction === "",
      );
      if (answer === "asset_not_deployed_contract") return { ok: false, reason: answer };
      if (answer.success && answer.transaction !== "") return { ok: true, transaction: answer.transaction };
      return { ok: false, reason: answer.errorReason ?? "settlement_failed" };
    },
  };
}
