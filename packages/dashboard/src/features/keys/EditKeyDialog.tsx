import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { parseEditKeyForm } from "./edit-key-form";
import { KeyFormFields } from "./KeyFormFields";
import { type KeyFields, keyFieldsFrom } from "./key-fields";
import type { ApiKey } from "./key-status";

/**
 * "Edit" for one key: its name, rate limit, expiry, permissions, credits and metadata, filled with what
 * it holds now; "Save" sends only what changed (`keys.update`).
 */
export function EditKeyDialog({ apiKey, describedBy }: { apiKey: ApiKey; describedBy: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // What the key held when the dialog opened, and the form's values since.
  const [initial, setInitial] = useState<KeyFields | null>(null);
  const [fields, setFields] = useState<KeyFields | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const update = useMutation(
    trpc.keys.update.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.keys.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
        close();
      },
    }),
  );

  function show() {
    const current = keyFieldsFrom(apiKey);
    setInitial(current);
    setFields(current);
    setFormError(null);
    update.reset();
    setOpen(true);
  }

  function close() {
    setOpen(false);
    setInitial(null);
    setFields(null);
    setFormError(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (fields === null || initial === null) return;
    const parsed = parseEditKeyForm(apiKey.id, fields, initial, new Date());
    if (!parsed.ok) {
      setFormError(parsed.message);
      return;
    }
    setFormError(null);
    update.mutate(parsed.input);
  }

  const error = formError ?? (update.isError ? describeError(update.error) : null);

  return (
    <>
      <button type="button" className="button button-small" aria-describedby={describedBy} onClick={show}>
        Edit
      </button>
      <Dialog open={open} onClose={close} title={`Edit “${apiKey.name}”`}>
        {fields === null ? null : (
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
              <button type="submit" className="button button-primary" disabled={update.isPending}>
                Save
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
