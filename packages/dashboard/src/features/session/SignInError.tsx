import { useMutation } from "@tanstack/react-query";
import type { Connector } from "wagmi";
import { chainList, chainName, switchWalletChain, WrongChainError } from "./chains";
import { describeSignInError } from "./sign-in-error";

/**
 * A failed sign-in in words. A wallet on a chain that cannot sign in is told which chains can and is
 * offered a switch to the first of them (`wallet_switchEthereumChain`), then signs in again.
 */
export function SignInError({
  error,
  connector,
  onSwitched,
}: {
  error: unknown;
  connector: Connector | undefined;
  onSwitched: (connector: Connector) => void;
}) {
  const target = error instanceof WrongChainError ? error.allowed[0] : undefined;
  const switchChain = useMutation({
    mutationFn: async (chosen: { connector: Connector; chainId: number }) => {
      await switchWalletChain(chosen.connector, chosen.chainId);
      return chosen.connector;
    },
    onSuccess: onSwitched,
  });

  if (!(error instanceof WrongChainError) || target === undefined || connector === undefined) {
    return (
      <p role="alert" className="status status-error">
        {describeSignInError(error)}
      </p>
    );
  }
  return (
    <div role="alert" className="status status-error">
      <p>
        Your wallet is on {chainName(error.chainId)}. Keyport signs in on {chainList(error.allowed)} only;
        nothing was signed.
      </p>
      <button
        type="button"
        className="button button-primary"
        disabled={switchChain.isPending}
        onClick={() => switchChain.mutate({ connector, chainId: target })}
      >
        Switch to {chainName(target)}
      </button>
      {switchChain.isError ? (
        <p>
          The wallet did not switch ({describeSignInError(switchChain.error)}). Switch to {chainName(target)}{" "}
          in the wallet, then sign in again.
        </p>
      ) : null}
    </div>
  );
}
