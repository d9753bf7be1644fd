import { useConnectors } from "wagmi";
import { describeSignInError } from "./sign-in-error";
import { useSignIn } from "./use-sign-in";
import { walletChoices } from "./wallet-choice";

/** Signed out: one "Sign in" button, or one button per wallet named by the wallet. */
export function SignInScreen() {
  const connectors = useConnectors();
  const signIn = useSignIn();
  const choices = walletChoices(connectors, typeof window !== "undefined" && "ethereum" in window);

  return (
    <main className="sign-in" id="main">
      <h1>Keyport</h1>
      <p>
        API keys owned by your wallet. Sign in with your wallet to create, roll and revoke keys and see their
        usage.
      </p>
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
        <p role="alert" className="status status-error">
          {describeSignInError(signIn.error)}
        </p>
      ) : null}
    </main>
  );
}
