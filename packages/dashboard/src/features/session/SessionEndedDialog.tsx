import { clearEndedSession } from "../../lib/ended-session";
import { shortAddress } from "../../lib/format";
import type { Session } from "../../lib/session-api";
import { Dialog } from "../../ui/Dialog";
import { WalletSignIn } from "./WalletSignIn";

/**
 * Over the page as it was when its session ended (expired, or signed out from elsewhere): says so and
 * asks to sign in again. The page stays mounted underneath, so the view, its open dialog and what was
 * typed into it are all there after signing in. Escape does not dismiss it (the page cannot act
 * without a session); "Leave" goes to the plain sign-in screen.
 */
export function SessionEndedDialog({ session }: { session: Session }) {
  return (
    <Dialog open onClose={() => {}} title="Your session ended">
      <p>
        The session of {shortAddress(session.wallet)} expired or was signed out from elsewhere. Sign in again
        to carry on where you were: this page and what you typed are kept.
      </p>
      <WalletSignIn />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={clearEndedSession}>
          Leave
        </button>
      </div>
    </Dialog>
  );
}
