import { useConnectors } from "wagmi";
import { SignInError } from "./SignInError";
import { useSignIn } from "./use-sign-in";
import { walletChoices } from "./wallet-choice";

/** One "Sign in" button, or one per wallet named by the wallet, with the flow's progress and errors. */
export function WalletSignIn() {
  const connectors = useConnectors();
  const signIn = useSignIn();
  const choices = walletChoices(connectors, typeof window !== "undefined" && "ethereum" in window);

  return (
    <>
      {choices.length === 0 ? (
        <p role="alert" className="status status-error">
          No browser wallet found. Install or enable a wallet extension (any EIP-1193 wallet), then reload
          this page.
        </p>
      ) : (
        <div className="wallet-buttons">
          {choices.map((connector) => (
            <button
              key={connector.uid}
              type="button"
              className="button button-primary"
              disabled={signIn.isPending}
              onClick={() => signIn.mutate(connector)}
            >
              {choices.length === 1 ? "Sign in" : connector.name}
            </button>
          ))}
        </div>
      )}
      {signIn.isPending ? (
        <p role="status" className="status">
          Confirm the sign-in message in your wallet…
        </p>
      ) : null}
      {signIn.isError ? (
        <SignInError
          error={signIn.error}
          connector={signIn.variables}
          onSwitched={(connector) => signIn.mutate(connector)}
        />
      ) : null}
    </>
  );
}
