import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { parseEditKeyForm } from "./edit-key-form";
import type { FieldError } from "./form-errors";
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
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [attempt, setAttempt] = useState(0);
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
    setErrors([]);
    setAttempt(0);
    update.reset();
    setOpen(true);
  }

  function close() {
    setOpen(false);
    setInitial(null);
    setFields(null);
    setErrors([]);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (fields === null || initial === null) return;
    const parsed = parseEditKeyForm(apiKey.id, fields, initial, new Date());
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setAttempt((count) => count + 1);
      return;
    }
    setErrors([]);
    update.mutate(parsed.input);
  }

  const formError = errors.find((error) => error.field === null)?.message;
  const error = formError ?? (update.isError ? describeError(update.error) : null);

  return (
    <>
      <button type="button" className="button button-small" aria-describedby={describedBy} onClick={show}>
        Edit
      </button>
      <Dialog open={open} onClose={close} title={`Edit “${apiKey.name}”`}>
        {fields === null ? null : (
          <form onSubmit={submit} className="form" noValidate>
            <KeyFormFields fields={fields} onChange={setFields} errors={errors} attempt={attempt} />
            <FormAlert error={error} fieldErrors={errors.length} />
            <DialogActions onCancel={close} confirmLabel="Save" busy={update.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
