import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { formatDateTime } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useGuardedClose } from "../../ui/use-guarded-close";
import { invalidateKeys } from "./key-queries";
import type { ApiKey } from "./key-status";
import { SecretReveal } from "./SecretReveal";

const GRACE_PERIODS = [
  { seconds: 0, label: "None: the old key stops now" },
  { seconds: 3_600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" },
  { seconds: 604_800, label: "7 days" },
] as const;

/** "Roll" for one key: choose a grace period, confirm with "Roll", then the new secret once. */
export function RollKeyDialog({ apiKey, describedBy }: { apiKey: ApiKey; describedBy: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState(3_600);
  const roll = useMutation({ ...trpc.keys.roll.mutationOptions(), gcTime: 0 });
  useResetSessionErrorOnReturn(roll.error, roll.reset);
  const guard = useGuardedClose(close);

  function close() {
    // The list (and the key page's key) refresh only once the new secret is put away: the rolled key can no longer be rolled,
    // so a refresh while the secret shows would unmount this row's dialog and the secret with it.
    if (roll.data) {
      // The toast comes once the modal is gone (while it is open the rest of the page is inert).
      const until = roll.data.previous.revokedAt;
      showToast(
        until !== null && until > new Date()
          ? `Key “${apiKey.name}” rolled: the old secret works until ${formatDateTime(until)}.`
          : `Key “${apiKey.name}” rolled: the old secret no longer works.`,
      );
      void invalidateKeys(queryClient);
      void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
    }
    setOpen(false);
    roll.reset();
  }

  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        Roll
      </button>
      <Dialog
        open={open}
        onClose={roll.data ? guard.request : close}
        closeOnBackdrop={roll.data !== undefined}
        title={roll.data ? "Your new key" : `Roll “${apiKey.name}”`}
      >
        {roll.data ? (
          <SecretReveal secret={roll.data.key} guard={guard} />
        ) : (
          <form
            className="form"
            onSubmit={(event) => {
              event.preventDefault();
              roll.mutate({ id: apiKey.id, gracePeriodSeconds: grace });
            }}
          >
            <p>
              A new secret replaces this key. The old one keeps working during the grace period, then fails.
            </p>
            <label className="field">
              <span>Grace period</span>
              <select value={grace} onChange={(event) => setGrace(Number(event.currentTarget.value))}>
                {GRACE_PERIODS.map((period) => (
                  <option key={period.seconds} value={period.seconds}>
                    {period.label}
                  </option>
                ))}
              </select>
            </label>
            <FormAlert error={roll.isError ? describeError(roll.error) : null} />
            <DialogActions onCancel={close} confirmLabel="Roll" busy={roll.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
