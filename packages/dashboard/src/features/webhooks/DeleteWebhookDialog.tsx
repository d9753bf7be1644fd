import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { navigate } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useRefreshWebhooks } from "./use-webhook-actions";
import type { Webhook } from "./webhook-words";

/** "Delete" for one endpoint, behind a confirm; then back to the list. */
export function DeleteWebhookDialog({ wallet, webhook }: { wallet: string; webhook: Webhook }) {
  const refresh = useRefreshWebhooks();
  const [open, setOpen] = useState(false);
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        // Leave the page first: the refreshed list no longer holds this endpoint.
        navigate("/webhooks");
        await refresh();
        showToast(`Endpoint ${webhook.url} deleted.`);
      },
    }),
  );
  useResetSessionErrorOnReturn(remove.error, remove.reset);

  function close() {
    setOpen(false);
    remove.reset();
  }

  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        Delete
      </button>
      <Dialog open={open} onClose={close} title="Delete this endpoint?">
        <p>
          <code>{webhook.url}</code> receives no more events, and its delivery log goes with it. This cannot
          be undone.
        </p>
        <FormAlert error={remove.isError ? describeError(remove.error) : null} />
        <DialogActions
          onCancel={close}
          confirmLabel="Delete"
          busy={remove.isPending}
          tone="danger"
          onConfirm={() => remove.mutate({ wallet, id: webhook.id })}
        />
      </Dialog>
    </>
  );
}
