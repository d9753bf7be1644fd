import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useFormErrors } from "../../ui/use-form-errors";
import { useRefreshWebhooks } from "./use-webhook-actions";
import { WebhookFormFields } from "./WebhookFormFields";
import {
  changedWebhookFields,
  parseWebhookForm,
  serverFieldErrors,
  type WebhookFieldName,
  webhookFields,
} from "./webhook-form";
import type { Webhook } from "./webhook-words";

/** "Edit" for one endpoint: URL, events and description, sending only what changed. */
export function EditWebhookDialog({ wallet, webhook }: { wallet: string; webhook: Webhook }) {
  const refresh = useRefreshWebhooks();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(() => webhookFields(webhook));
  const form = useFormErrors<WebhookFieldName>();
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async ({ webhook: saved }) => {
        await refresh();
        close();
        showToast(`Endpoint ${saved.url} saved.`);
      },
      onError: (error) => form.show(serverFieldErrors(error, describeError(error))),
    }),
  );
  // Back from an ended session: the refused answer's error, copied beside the fields, goes as well.
  useResetSessionErrorOnReturn(update.error, () => {
    update.reset();
    form.reset();
  });

  function close() {
    setOpen(false);
    form.reset();
    update.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.check(parseWebhookForm(fields));
    if (input === null) return;
    const changes = changedWebhookFields(webhook, input);
    if (changes === null) {
      form.show([{ field: null, message: "Nothing changed." }]);
      return;
    }
    update.mutate({ wallet, id: webhook.id, ...changes });
  }

  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => {
          // Each opening starts from the endpoint as it is now.
          setFields(webhookFields(webhook));
          setOpen(true);
        }}
      >
        Edit
      </button>
      <Dialog open={open} onClose={close} title="Edit endpoint">
        <form onSubmit={submit} className="form" noValidate>
          <WebhookFormFields fields={fields} onChange={setFields} form={form} />
          <FormAlert error={form.formError} fieldErrors={form.fieldErrorCount} />
          <DialogActions onCancel={close} confirmLabel="Save" busy={update.isPending} />
        </form>
      </Dialog>
    </>
  );
}
