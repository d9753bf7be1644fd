import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { SecretOnce } from "../../ui/SecretOnce";
import { showToast } from "../../ui/toast";
import { useGuardedClose } from "../../ui/use-guarded-close";
import type { OperatorScope } from "./operator-types";
import { SCOPES } from "./operator-words";
import { localDateTime, parseTokenForm, type TokenFields } from "./token-form";

const EMPTY: TokenFields = { name: "", scopes: [], expiresAt: "" };

/**
 * "Create token": a name, scopes as checkboxes, an optional expiry (local time); then the token once,
 * with "Copy" (leaving before a copy asks first, as a key's secret does).
 */
export function CreateTokenDialog() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof TokenFields, string>>>({});
  const ids = { name: useId(), scopes: useId(), expiresAt: useId() };
  const create = useMutation({
    ...trpc.operator.tokens.create.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.operator.tokens.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.operator.audit.list.pathKey() });
      },
    }),
    // The answer holds the secret: keep it no longer than the dialog shows it.
    gcTime: 0,
  });
  useResetSessionErrorOnReturn(create.error, create.reset);
  const guard = useGuardedClose(close);

  function close() {
    if (create.data) showToast(`Token “${create.data.token.name}” created.`);
    setOpen(false);
    setFields(EMPTY);
    setErrors({});
    create.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseTokenForm(fields, new Date());
    if (!parsed.ok) {
      setErrors(parsed.errors);
      const first = (["name", "scopes", "expiresAt"] as const).find((field) => parsed.errors[field]);
      if (first !== undefined)
        document.getElementById(first === "scopes" ? `${ids.scopes}-0` : ids[first])?.focus();
      return;
    }
    setErrors({});
    create.mutate(parsed.input);
  }

  function toggle(scope: OperatorScope, on: boolean) {
    const scopes = on ? [...fields.scopes, scope] : fields.scopes.filter((held) => held !== scope);
    setFields({
      ...fields,
      scopes: SCOPES.map((entry) => entry.scope).filter((held) => scopes.includes(held)),
    });
  }

  const fieldErrors = Object.values(errors).filter((message) => message !== undefined).length;
  const describedBy = (field: keyof TokenFields) => (errors[field] ? `${ids[field]}-error` : undefined);

  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        Create token
      </button>
      <Dialog
        open={open}
        onClose={create.data ? guard.request : close}
        closeOnBackdrop={create.data !== undefined}
        title={create.data ? "Your new token" : "Create token"}
      >
        {create.data ? (
          <SecretOnce
            label="token"
            secret={create.data.secret}
            guard={guard}
            warning={
              <>
                <strong>Copy this token now.</strong> Keyport stores only its hash: it will not be shown
                again. Send it as <code>Authorization: Bearer</code> to the operator API.
              </>
            }
          />
        ) : (
          <form onSubmit={submit} className="form" noValidate>
            <div className="field">
              <label htmlFor={ids.name}>Name</label>
              <input
                id={ids.name}
                value={fields.name}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={describedBy("name")}
                onChange={(event) => setFields({ ...fields, name: event.target.value })}
              />
              {errors.name ? (
                <p id={`${ids.name}-error`} className="field-error">
                  {errors.name}
                </p>
              ) : null}
            </div>
            <fieldset className="field-group scope-group" aria-describedby={describedBy("scopes")}>
              <legend>Scopes</legend>
              {SCOPES.map((entry, index) => (
                <label key={entry.scope} className="check" htmlFor={`${ids.scopes}-${index}`}>
                  <input
                    id={`${ids.scopes}-${index}`}
                    type="checkbox"
                    checked={fields.scopes.includes(entry.scope)}
                    aria-invalid={errors.scopes ? true : undefined}
                    onChange={(event) => toggle(entry.scope, event.target.checked)}
                  />
                  <span>
                    {entry.label} <code>{entry.scope}</code>
                  </span>
                </label>
              ))}
              {errors.scopes ? (
                <p id={`${ids.scopes}-error`} className="field-error field-group-hint">
                  {errors.scopes}
                </p>
              ) : null}
            </fieldset>
            <div className="field">
              <label htmlFor={ids.expiresAt}>Expires (optional, your local time)</label>
              <input
                id={ids.expiresAt}
                type="datetime-local"
                value={fields.expiresAt}
                min={localDateTime(new Date())}
                aria-invalid={errors.expiresAt ? true : undefined}
                aria-describedby={describedBy("expiresAt")}
                onChange={(event) => setFields({ ...fields, expiresAt: event.target.value })}
              />
              {errors.expiresAt ? (
                <p id={`${ids.expiresAt}-error`} className="field-error">
                  {errors.expiresAt}
                </p>
              ) : null}
            </div>
            <FormAlert
              error={create.isError ? describeError(create.error) : null}
              fieldErrors={fieldErrors}
            />
            <DialogActions onCancel={close} confirmLabel="Create token" busy={create.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
