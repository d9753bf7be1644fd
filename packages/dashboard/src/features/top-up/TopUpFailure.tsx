import { chainName } from "../session/chains";
import { describeTopUpError, WrongNetworkError } from "./top-up-errors";

/** The props of {@link TopUpFailure}. */
export interface TopUpFailureProps {
  /** The top-up's error, or null. */
  error: Error | null;
  /** The amount in whole USDC, for the words of a payer short of funds. */
  needed: string;
  switching: boolean;
  switchFailed: boolean;
  onSwitch: (chainId: number) => void;
}

/**
 * A failed top-up in words; a wallet on another chain than the payment's is offered "Switch to <chain>"
 * (`wallet_switchEthereumChain`), after which "Pay" signs on the right chain.
 */
export function TopUpFailure({ error, needed, switching, switchFailed, onSwitch }: TopUpFailureProps) {
  if (error === null) return null;
  if (!(error instanceof WrongNetworkError)) {
    return (
      <p role="alert" className="status-error">
        {describeTopUpError(error, needed)}
      </p>
    );
  }
  return (
    <div role="alert" className="status-error">
      <p>{error.message} Nothing was signed.</p>
      <button
        type="button"
        className="button button-primary"
        disabled={switching}
        onClick={() => onSwitch(error.target)}
      >
        Switch to {chainName(error.target)}
      </button>
      {switchFailed ? (
        <p>The wallet did not switch. Switch to {chainName(error.target)} in the wallet, then pay again.</p>
      ) : null}
    </div>
  );
}
