import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { type CreateKeyFields, parseCreateKeyForm } from "./create-key-form";
import { SecretReveal } from "./SecretReveal";

const EMPTY: CreateKeyFields = { name: "", limit: "", windowSeconds: "", expiresAt: "" };

/** The "Create key" button and its dialog: name, optional rate limit and expiry, then the secret once. */
export function CreateKeyDialog() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutation({
    ...trpc.keys.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.keys.list.pathKey() }),
    }),
    // The answer holds the secret: keep it no longer than the dialog shows it.
    gcTime: 0,
  });

  function close() {
    setOpen(false);
    setFields(EMPTY);
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

  const set = (name: keyof CreateKeyFields) => (event: { currentTarget: HTMLInputElement }) =>
    setFields({ ...fields, [name]: event.currentTarget.value });
  const error = formError ?? (create.isError ? describeError(create.error) : null);

  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        Create key
      </button>
      <Dialog open={open} onClose={close} title={create.data ? "Your new key" : "Create key"}>
        {create.data ? (
          <SecretReveal secret={create.data.key} onDone={close} />
        ) : (
          <form onSubmit={submit} className="form" noValidate>
            <label className="field">
              <span>Name</span>
              <input type="text" required maxLength={64} value={fields.name} onChange={set("name")} />
            </label>
            <fieldset className="field-group">
              <legend>Rate limit (optional)</legend>
              <label className="field">
                <span>Requests</span>
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  value={fields.limit}
                  onChange={set("limit")}
                />
              </label>
              <label className="field">
                <span>Per seconds</span>
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={86_400}
                  value={fields.windowSeconds}
                  onChange={set("windowSeconds")}
                />
              </label>
            </fieldset>
            <label className="field">
              <span>Expiry (optional)</span>
              <input type="datetime-local" value={fields.expiresAt} onChange={set("expiresAt")} />
            </label>
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
