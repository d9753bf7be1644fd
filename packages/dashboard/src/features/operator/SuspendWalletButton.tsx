import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { checksummed } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { showToast } from "../../ui/toast";
import type { OperatorWallet } from "./operator-types";
import { ReasonDialog } from "./ReasonDialog";
import { changeSuspension } from "./suspension";

/**
 * "Suspend" (or "Unsuspend" while suspended) for one wallet, behind a confirmation that names it and
 * asks why. Suspended, its keys verify as WALLET_SUSPENDED and its sessions end; unsuspended, every
 * key is as it was.
 */
export function SuspendWalletButton({ wallet }: { wallet: OperatorWallet }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const action = wallet.suspended === null ? "suspend" : "unsuspend";
  const address = checksummed(wallet.address);
  const change = useMutation({
    mutationFn: (reason: string) => changeSuspension(action, { wallet: wallet.address, reason }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.operator.wallets.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.operator.audit.list.pathKey() }),
      ]);
      close();
      showToast(action === "suspend" ? `Wallet ${address} suspended.` : `Wallet ${address} unsuspended.`);
    },
  });
  useResetSessionErrorOnReturn(change.error, change.reset);

  function close() {
    setOpen(false);
    change.reset();
  }

  return (
    <>
      <button
        type="button"
        className={action === "suspend" ? "button button-danger" : "button"}
        onClick={() => setOpen(true)}
      >
        {action === "suspend" ? "Suspend" : "Unsuspend"}
      </button>
      <ReasonDialog
        open={open}
        onClose={close}
        title={action === "suspend" ? `Suspend wallet ${address}?` : `Unsuspend wallet ${address}?`}
        confirmLabel={action === "suspend" ? "Suspend wallet" : "Unsuspend wallet"}
        tone={action === "suspend" ? "danger" : "primary"}
        busy={change.isPending}
        error={change.isError ? describeError(change.error) : null}
        onConfirm={(reason) => change.mutate(reason)}
      >
        {action === "suspend" ? (
          <p>
            Every key of <code className="break">{address}</code> fails verification (WALLET_SUSPENDED) within
            a second, its sessions end and it cannot sign in until unsuspended. Nothing is deleted.
          </p>
        ) : (
          <p>
            <code className="break">{address}</code> may sign in again and each of its keys verifies as it did
            before the suspension.
          </p>
        )}
      </ReasonDialog>
    </>
  );
}
