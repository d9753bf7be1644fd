import { HTTPFacilitatorClient } from "@x402/core/http";
import { SettleError, VerifyError } from "@x402/core/types";
import { MAX_TIMEOUT_SECONDS } from "./settings.js";
import { SettlementUnavailableError, type Settler } from "./settler.js";

/**
 * Settles through an x402 facilitator at `url` (`POST /verify`, `POST /settle`), with @x402/core's
 * client. A refusal the facilitator states (its `VerifyError`/`SettleError`, or `isValid`/`success`
 * false) is a refusal; anything else (unreachable, timeout, a malformed answer) is unavailable.
 */
export function createUrlSettler(url: string): Settler {
  const client = new HTTPFacilitatorClient({ url, timeoutMs: MAX_TIMEOUT_SECONDS * 1000 });
  return {
    async verify(payload, requirement) {
      try {
        const answer = await client.verify(payload, requirement);
        return answer.isValid
          ? { ok: true }
          : { ok: false, reason: answer.invalidReason ?? "invalid_payment" };
      } catch (error) {
        if (error instanceof VerifyError)
          return { ok: false, reason: error.invalidReason ?? "invalid_payment" };
        throw new SettlementUnavailableError(error);
      }
    },
    async settle(payload, requirement) {
      try {
        const answer = await client.settle(payload, requirement);
        if (answer.success && answer.transaction !== "") return { ok: true, transaction: answer.transaction };
        return { ok: false, reason: answer.errorReason ?? "settlement_failed" };
      } catch (error) {
        if (error instanceof SettleError)
          return { ok: false, reason: error.errorReason ?? "settlement_failed" };
        throw new SettlementUnavailableError(error);
      }
    },
  };
}
