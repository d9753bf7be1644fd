import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError } from "../../lib/errors";
import { useMeta } from "../../lib/meta";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { parseCreateKeyForm } from "./create-key-form";
import { KeyFormFields } from "./KeyFormFields";
import { EMPTY_KEY_FIELDS } from "./key-fields";
import { SecretReveal } from "./SecretReveal";

/**
 * The "Create key" button and its dialog: name, optional rate limit, expiry, permissions, credits and
 * metadata, then the secret once.
 */
export function CreateKeyDialog() {
  const queryClient = useQueryClient();
  const meta = useMeta();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY_KEY_FIELDS);
  const [formError, setFormError] = useState<string | null>(null);
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

  function close() {
    setOpen(false);
    setFields(EMPTY_KEY_FIELDS);
    setFormError(null);
    create.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseCreateKeyForm(fields, new Date());
    if (!parsed.ok) {
      setFormError(parsed.message);
      return;
    }
    setFormError(null);
    create.mutate(parsed.input);
  }

  const error = formError ?? (create.isError ? describeError(create.error) : null);

  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        Create key
      </button>
      <Dialog open={open} onClose={close} title={create.data ? "Your new key" : "Create key"}>
        {create.data ? (
          <SecretReveal secret={create.data.key} onDone={close} exampleServerUrl={meta.serverUrl} />
        ) : (
          <form onSubmit={submit} className="form" noValidate>
            <KeyFormFields fields={fields} onChange={setFields} />
            {error ? (
              <p role="alert" className="status-error">
                {error}
              </p>
            ) : null}
            <div className="dialog-actions">
              <button type="button" className="button" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="button button-primary" disabled={create.isPending}>
                Create
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
