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
import { useGuardedClose } from "../../ui/use-guarded-close";
import { parseCreateKeyForm } from "./create-key-form";
import type { FieldError } from "./form-errors";
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
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [attempt, setAttempt] = useState(0);
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
    setErrors([]);
    setAttempt(0);
    create.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseCreateKeyForm(fields, new Date());
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setAttempt((count) => count + 1);
      return;
    }
    setErrors([]);
    create.mutate(parsed.input);
  }

  const formError = errors.find((error) => error.field === null)?.message;
  const error = formError ?? (create.isError ? describeError(create.error) : null);

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
            <KeyFormFields fields={fields} onChange={setFields} errors={errors} attempt={attempt} />
            <FormAlert error={error} fieldErrors={errors.length} />
            <DialogActions onCancel={close} confirmLabel="Create" busy={create.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
