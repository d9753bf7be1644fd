import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useGuardedClose } from "../../ui/use-guarded-close";
import { WebhookSecretReveal } from "./WebhookSecretReveal";
import type { Webhook } from "./webhook-words";

const OLD_SECRET_NOTE =
  "The old secret keeps signing for 24 hours: each request carries both signatures until then, so you can switch your backend over.";

/** "Rotate secret": confirm, then the new secret once (the old one signs alongside for 24 hours). */
export function RotateSecretDialog({ wallet, webhook }: { wallet: string; webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  // The answer holds the secret: keep it no longer than the dialog shows it.
  const rotate = useMutation({ ...trpc.webhooks.rotateSecret.mutationOptions(), gcTime: 0 });
  useResetSessionErrorOnReturn(rotate.error, rotate.reset);
  const guard = useGuardedClose(close);

  function close() {
    // The toast comes once the modal is gone: while it is open the rest of the page is inert.
    if (rotate.data) showToast("Secret rotated: the old secret keeps signing for 24 hours.");
    setOpen(false);
    rotate.reset();
  }

  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Rotate secret
      </button>
      <Dialog
        open={open}
        onClose={rotate.data ? guard.request : close}
        closeOnBackdrop={rotate.data !== undefined}
        title={rotate.data ? "Your endpoint's new signing secret" : "Rotate the signing secret?"}
      >
        {rotate.data ? (
          <WebhookSecretReveal secret={rotate.data.secret} note={OLD_SECRET_NOTE} guard={guard} />
        ) : (
          <>
            <p>A new secret signs every request from now on. {OLD_SECRET_NOTE}</p>
            <FormAlert error={rotate.isError ? describeError(rotate.error) : null} />
            <DialogActions
              onCancel={close}
              confirmLabel="Rotate"
              busy={rotate.isPending}
              onConfirm={() => rotate.mutate({ wallet, id: webhook.id })}
            />
          </>
        )}
      </Dialog>
    </>
  );
}
