import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { useRefreshWebhooks } from "./use-webhook-actions";
import { WebhookFormFields } from "./WebhookFormFields";
import {
  changedWebhookFields,
  parseWebhookForm,
  serverFieldErrors,
  type WebhookFieldError,
  webhookFields,
} from "./webhook-form";
import type { Webhook } from "./webhook-words";

/** "Edit" for one endpoint: URL, events and description, sending only what changed. */
export function EditWebhookDialog({ wallet, webhook }: { wallet: string; webhook: Webhook }) {
  const refresh = useRefreshWebhooks();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(() => webhookFields(webhook));
  const [errors, setErrors] = useState<WebhookFieldError[]>([]);
  const [attempt, setAttempt] = useState(0);
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async ({ webhook: saved }) => {
        await refresh();
        close();
        showToast(`Endpoint ${saved.url} saved.`);
      },
      onError: (error) => {
        setErrors(serverFieldErrors(error, describeError(error)));
        setAttempt((count) => count + 1);
      },
    }),
  );
  useResetSessionErrorOnReturn(update.error, update.reset);

  function close() {
    setOpen(false);
    setErrors([]);
    setAttempt(0);
    update.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseWebhookForm(fields);
    setAttempt((count) => count + 1);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    const changes = changedWebhookFields(webhook, parsed.input);
    if (changes === null) {
      setErrors([{ field: null, message: "Nothing changed." }]);
      return;
    }
    setErrors([]);
    update.mutate({ wallet, id: webhook.id, ...changes });
  }

  const fieldErrors = errors.filter((error) => error.field !== null);
  const formError = errors.find((error) => error.field === null)?.message ?? null;

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
          <WebhookFormFields fields={fields} onChange={setFields} errors={errors} attempt={attempt} />
          <FormAlert error={formError} fieldErrors={fieldErrors.length} />
          <DialogActions onCancel={close} confirmLabel="Save" busy={update.isPending} />
        </form>
      </Dialog>
    </>
  );
}
