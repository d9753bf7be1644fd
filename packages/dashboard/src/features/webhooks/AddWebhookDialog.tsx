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
import { useGuardedClose } from "../../ui/use-guarded-close";
import { WebhookFormFields } from "./WebhookFormFields";
import { WebhookSecretReveal } from "./WebhookSecretReveal";
import {
  NEW_WEBHOOK_FIELDS,
  parseWebhookForm,
  serverFieldErrors,
  type WebhookFieldName,
} from "./webhook-form";

/**
 * "Add endpoint" and its dialog: URL, events and description (errors beside their fields, the server's
 * refusal under the URL), then the signing secret once; leaving it before a copy asks first.
 */
export function AddWebhookDialog({ wallet, disabledBy }: { wallet: string; disabledBy?: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(NEW_WEBHOOK_FIELDS);
  const form = useFormErrors<WebhookFieldName>();
  const create = useMutation({
    ...trpc.webhooks.create.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
      },
      onError: (error) => form.show(serverFieldErrors(error, describeError(error))),
    }),
    // The answer holds the secret: keep it no longer than the dialog shows it.
    gcTime: 0,
  });
  // Back from an ended session: the refused answer's error, copied beside the fields, goes as well.
  useResetSessionErrorOnReturn(create.error, () => {
    create.reset();
    form.reset();
  });
  const guard = useGuardedClose(close);

  function close() {
    // The toast comes once the modal is gone: while it is open the rest of the page is inert.
    if (create.data) showToast(`Endpoint ${create.data.webhook.url} added.`);
    setOpen(false);
    setFields(NEW_WEBHOOK_FIELDS);
    form.reset();
    create.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.check(parseWebhookForm(fields));
    if (input !== null) create.mutate({ wallet, ...input });
  }

  return (
    <>
      <button
        type="button"
        className="button button-primary"
        disabled={disabledBy !== undefined}
        aria-describedby={disabledBy}
        onClick={() => setOpen(true)}
      >
        Add endpoint
      </button>
      <Dialog
        open={open}
        onClose={create.data ? guard.request : close}
        closeOnBackdrop={create.data !== undefined}
        title={create.data ? "Your endpoint's signing secret" : "Add endpoint"}
      >
        {create.data ? (
          <WebhookSecretReveal secret={create.data.secret} guard={guard} />
        ) : (
          <form onSubmit={submit} className="form" noValidate>
            <WebhookFormFields fields={fields} onChange={setFields} form={form} />
            <FormAlert error={form.formError} fieldErrors={form.fieldErrorCount} />
            <DialogActions onCancel={close} confirmLabel="Add endpoint" busy={create.isPending} />
          </form>
        )}
      </Dialog>
    </>
  );
}
