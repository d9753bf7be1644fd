import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { useMeta } from "../../lib/meta";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useFormErrors } from "../../ui/use-form-errors";
import { useGuardedClose } from "../../ui/use-guarded-close";
import { parseCreateKeyForm } from "./create-key-form";
import type { KeyFieldName } from "./form-errors";
import { KeyFormFields } from "./KeyFormFields";
import { EMPTY_KEY_FIELDS } from "./key-fields";
import { SecretReveal } from "./SecretReveal";

/**
 * The "Create key" button and its dialog: name, optional rate limit, expiry, permissions, credits and
 * metadata (errors beside their fields), then the secret once; leaving it before a copy asks first.
 */
export function CreateKeyDialog() {
  const queryClient = useQueryClient();
  const meta = useMeta();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY_KEY_FIELDS);
  const form = useFormErrors<KeyFieldName>();
  const create = useMutation({
    ...trpc.keys.create.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.keys.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
      },
    }),
    // The answer holds the secret: keep it no longer than the dialog shows it.
    gcTime: 0,
  });
  useResetSessionErrorOnReturn(create.error, create.reset);
  const guard = useGuardedClose(close);

  function close() {
    // The toast comes once the modal is gone: while it is open the rest of the page is inert, and a
    // screen reader would not hear it.
    if (create.data) showToast(`Key “${create.data.apiKey.name}” created.`);
    setOpen(false);
    setFields(EMPTY_KEY_FIELDS);
    form.reset();
    create.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.check(parseCreateKeyForm(fields, new Date()));
    if (input !== null) create.mutate(input);
  }

  const error = form.formError ?? (create.isError ? describeError(create.error) : null);

  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        Create key
      </button>
      <Dialog
        open={open}
        onClose={create.data ? guard.request : close}
        closeOnBackdrop={create.data !== undefined}
        title={create.data ? "Your new key" : "Create key"}
      >
        {create.data ? (
          <SecretReveal secret={create.data.key} guard={guard} exampleServerUrl={meta.serverUrl} />
        ) : (
          <form onSubmit={submit} className="form" noValidate>
            <KeyFormFields fields={fields} onChange={setFields} form={form} />
            <FormAlert error={error} fieldErrors={form.fieldErrorCount} />
            <DialogActions onCancel={close} confirmLabel="Create" busy={create.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
