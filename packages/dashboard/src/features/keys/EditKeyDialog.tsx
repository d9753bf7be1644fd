import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useFormErrors } from "../../ui/use-form-errors";
import { parseEditKeyForm } from "./edit-key-form";
import type { KeyFieldName } from "./form-errors";
import { KeyFormFields } from "./KeyFormFields";
import { type KeyFields, keyFieldsFrom } from "./key-fields";
import { invalidateKeys } from "./key-queries";
import type { ApiKey } from "./key-status";

/**
 * "Edit" for one key: its name, rate limit, expiry, permissions, credits and metadata, filled with what
 * it holds now; "Save" sends only what changed (`keys.update`), errors sit beside their fields, and a
 * toast confirms the save.
 */
export function EditKeyDialog({ apiKey, describedBy }: { apiKey: ApiKey; describedBy: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // What the key held when the dialog opened, and the form's values since.
  const [initial, setInitial] = useState<KeyFields | null>(null);
  const [fields, setFields] = useState<KeyFields | null>(null);
  const form = useFormErrors<KeyFieldName>();
  const update = useMutation(
    trpc.keys.update.mutationOptions({
      onSuccess: (answer) => {
        void invalidateKeys(queryClient);
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
        showToast(`Key “${answer.apiKey.name}” saved.`);
        close();
      },
    }),
  );
  useResetSessionErrorOnReturn(update.error, update.reset);

  function show() {
    const current = keyFieldsFrom(apiKey);
    setInitial(current);
    setFields(current);
    form.reset();
    update.reset();
    setOpen(true);
  }

  function close() {
    setOpen(false);
    setInitial(null);
    setFields(null);
    form.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (fields === null || initial === null) return;
    const input = form.check(parseEditKeyForm(apiKey.id, fields, initial, new Date()));
    if (input !== null) update.mutate(input);
  }

  const error = form.formError ?? (update.isError ? describeError(update.error) : null);

  return (
    <>
      <button type="button" className="button button-small" aria-describedby={describedBy} onClick={show}>
        Edit
      </button>
      <Dialog open={open} onClose={close} title={`Edit “${apiKey.name}”`}>
        {fields === null ? null : (
          <form onSubmit={submit} className="form" noValidate>
            <KeyFormFields fields={fields} onChange={setFields} form={form} />
            <FormAlert error={error} fieldErrors={form.fieldErrorCount} />
            <DialogActions onCancel={close} confirmLabel="Save" busy={update.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
