import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { checksummed } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useFormErrors } from "../../ui/use-form-errors";
import { useGuardedClose } from "../../ui/use-guarded-close";
import { parseCreateKeyForm } from "../keys/create-key-form";
import type { KeyFieldName } from "../keys/form-errors";
import { KeyFormFields } from "../keys/KeyFormFields";
import { EMPTY_KEY_FIELDS } from "../keys/key-fields";
import { SecretReveal } from "../keys/SecretReveal";

/**
 * "Issue key": the owner's create-key form (the same fields and checks) for another wallet, with an
 * optional reason for both trails; then the secret once, to hand to the wallet's owner.
 */
export function IssueKeyDialog({ wallet }: { wallet: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY_KEY_FIELDS);
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const form = useFormErrors<KeyFieldName>();
  const address = checksummed(wallet);
  const issue = useMutation({
    ...trpc.operator.keys.issue.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.operator.wallets.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.operator.audit.list.pathKey() });
      },
    }),
    // The answer holds the secret: keep it no longer than the dialog shows it.
    gcTime: 0,
  });
  useResetSessionErrorOnReturn(issue.error, issue.reset);
  const guard = useGuardedClose(close);

  function close() {
    if (issue.data) showToast(`Key “${issue.data.apiKey.name}” issued to ${address}.`);
    setOpen(false);
    setFields(EMPTY_KEY_FIELDS);
    setReason("");
    form.reset();
    issue.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.check(parseCreateKeyForm(fields, new Date()));
    if (input === null) return;
    const why = reason.trim();
    issue.mutate({ ...input, wallet, ...(why === "" ? {} : { reason: why }) });
  }

  const error = form.formError ?? (issue.isError ? describeError(issue.error) : null);

  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        Issue key
      </button>
      <Dialog
        open={open}
        onClose={issue.data ? guard.request : close}
        closeOnBackdrop={issue.data !== undefined}
        title={issue.data ? `The new key of ${address}` : `Issue a key to ${address}`}
      >
        {issue.data ? (
          <SecretReveal secret={issue.data.key} guard={guard} />
        ) : (
          <form onSubmit={submit} className="form" noValidate>
            <p className="muted">
              The key is the wallet&apos;s like any other (it lists, rolls and revokes it) and reads
              &ldquo;issued by the operator&rdquo;. Hand the secret to its owner yourself.
            </p>
            <KeyFormFields fields={fields} onChange={setFields} form={form} />
            <div className="field">
              <label htmlFor={reasonId}>Reason (optional)</label>
              <input
                id={reasonId}
                value={reason}
                maxLength={500}
                onChange={(event) => setReason(event.target.value.replace(/[\r\n]+/g, " "))}
              />
            </div>
            <FormAlert error={error} fieldErrors={form.fieldErrorCount} />
            <DialogActions onCancel={close} confirmLabel="Issue key" busy={issue.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
