import { useConnection } from "wagmi";
import { shortAddress } from "../../lib/format";
import type { Session } from "../../lib/session-api";
import { SignInError } from "./SignInError";
import { useSignIn } from "./use-sign-in";

/**
 * Says so when the wallet's selected account is not the signed-in one, and offers to sign in again.
 * The dashboard goes on acting for the session's wallet only: it never switches accounts silently.
 */
export function AccountNotice({ session }: { session: Session }) {
  const connection = useConnection();
  const signIn = useSignIn();
  if (connection.status !== "connected") return null;
  if (connection.address.toLowerCase() === session.wallet.toLowerCase()) return null;

  return (
    <div role="alert" className="notice">
      <p>
        Your wallet switched to {shortAddress(connection.address)}, but you are signed in as{" "}
        {shortAddress(session.wallet)}. Keyport keeps showing {shortAddress(session.wallet)} until you sign in
        again.
      </p>
      <button
        type="button"
        className="button button-primary"
        disabled={signIn.isPending}
        onClick={() => signIn.mutate(connection.connector)}
      >
        Sign in
      </button>
      {signIn.isError ? (
        <SignInError
          error={signIn.error}
          connector={signIn.variables}
          onSwitched={(connector) => signIn.mutate(connector)}
        />
      ) : null}
    </div>
  );
}
