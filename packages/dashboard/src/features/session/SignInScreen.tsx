import { WalletSignIn } from "./WalletSignIn";

/** Signed out: what Keyport is, and the wallet sign-in. */
export function SignInScreen() {
  return (
    <main className="sign-in" id="main">
      <h1>Keyport</h1>
      <p>
        API keys owned by your wallet. Sign in with your wallet to create, roll and revoke keys and see their
        usage.
      </p>
      <WalletSignIn />
    </main>
  );
}
