import type { FacilitatorEvmSigner } from "@x402/evm";
import { getAddress, type Hex } from "viem";
import { describeRpcFailure, isTransientRpcFailure } from "./rpc-failure.js";

/** A facilitator signer for one verify or settle, and what its node failed to answer meanwhile. */
export interface ObservedSigner {
  signer: FacilitatorEvmSigner;
  /** The transient failures seen (safe descriptions); empty when the node answered every call. */
  failures(): readonly string[];
}

/**
 * Wraps `signer` for one call into @x402/evm's facilitator so that no promise it starts can go
 * unobserved, and a node that could not answer is never mistaken for a refusal:
 *
 * - the library starts its asset check (`eth_getCode` on the asset) and may return before awaiting it
 *   (a bad signature, a junk payload): `getCode` here never rejects; a failure is recorded and
 *   answered as "no code", which the library only reads as a refusal we then overrule;
 * - the library turns some failed reads into refusals (a failed `eth_getCode` is "invalid signature",
 *   a failed simulation "insufficient funds"): every transient failure is recorded, and the caller
 *   answers 503 instead of the library's refusal (docs/payments.md#when-the-chain-does-not-answer);
 * - the asset's code, checked once by the caller (`assetCode`), is answered without a call.
 */
export function observeSigner(
  signer: FacilitatorEvmSigner,
  asset: { address: Hex; code: Hex },
): ObservedSigner {
  const failures: string[] = [];
  const assetAddress = getAddress(asset.address);
  function observe<T>(promise: Promise<T>): Promise<T> {
    return promise.catch((error: unknown) => {
      if (isTransientRpcFailure(error)) failures.push(describeRpcFailure(error));
      throw error;
    });
  }
  return {
    failures: () => failures,
    signer: {
      getAddresses: () => signer.getAddresses(),
      readContract: (args) => observe(signer.readContract(args)),
      verifyTypedData: (args) => observe(signer.verifyTypedData(args)),
      writeContract: (args) => observe(signer.writeContract(args)),
      sendTransaction: (args) => observe(signer.sendTransaction(args)),
      waitForTransactionReceipt: (args) => observe(signer.waitForTransactionReceipt(args)),
      getCode(args) {
        if (getAddress(args.address) === assetAddress) return Promise.resolve(asset.code);
        return observe(signer.getCode(args)).catch(() => undefined);
      },
    },
  };
}
