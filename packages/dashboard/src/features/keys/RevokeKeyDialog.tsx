import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { invalidateKeys } from "./key-queries";
import type { ApiKey } from "./key-status";

/** "Revoke" for one key, behind a confirm dialog whose button is "Revoke". */
export function RevokeKeyDialog({ apiKey, describedBy }: { apiKey: ApiKey; describedBy: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSuccess: async () => {
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
        await invalidateKeys(queryClient);
        close();
        showToast(`Key “${apiKey.name}” revoked.`);
      },
    }),
  );
  useResetSessionErrorOnReturn(revoke.error, revoke.reset);

  function close() {
    setOpen(false);
    revoke.reset();
  }

  return (
    <>
      <button
        type="button"
        className="button button-small button-danger"
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        Revoke
      </button>
      <Dialog open={open} onClose={close} title={`Revoke “${apiKey.name}”?`}>
        <p>The key fails verification from the next request. This cannot be undone.</p>
        <FormAlert error={revoke.isError ? describeError(revoke.error) : null} />
        <DialogActions
          onCancel={close}
          confirmLabel="Revoke"
          busy={revoke.isPending}
          tone="danger"
          onConfirm={() => revoke.mutate({ id: apiKey.id })}
        />
      </Dialog>
    </>
  );
}
