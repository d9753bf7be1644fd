import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { checksummed } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { showToast } from "../../ui/toast";
import { ReasonDialog } from "./ReasonDialog";

/** "Revoke" for one of a wallet's keys, behind a confirmation naming the key and the wallet, with a reason. */
export function RevokeAnyKeyButton({
  wallet,
  apiKey,
}: {
  wallet: string;
  apiKey: { id: string; name: string };
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const address = checksummed(wallet);
  const revoke = useMutation(
    trpc.operator.keys.revoke.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.operator.wallets.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.operator.audit.list.pathKey() }),
        ]);
        close();
        showToast(`Key “${apiKey.name}” of ${address} revoked.`);
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
        aria-label={`Revoke “${apiKey.name}”`}
        onClick={() => setOpen(true)}
      >
        Revoke
      </button>
      <ReasonDialog
        open={open}
        onClose={close}
        title={`Revoke “${apiKey.name}” of wallet ${address}?`}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        error={revoke.isError ? describeError(revoke.error) : null}
        onConfirm={(reason) => revoke.mutate({ id: apiKey.id, reason })}
      >
        <p>
          Key <code>{apiKey.id}</code> fails verification on every instance within a second. This cannot be
          undone; the wallet reads the reason in its activity.
        </p>
      </ReasonDialog>
    </>
  );
}
