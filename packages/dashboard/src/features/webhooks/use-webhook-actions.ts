import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { trpc } from "../../lib/trpc";
import { showToast } from "../../ui/toast";
import type { Webhook } from "./webhook-words";

/** Refreshes what a change to an endpoint shows: the list, the delivery log and the activity view. */
export function useRefreshWebhooks() {
  const queryClient = useQueryClient();
  return async () => {
    void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() });
  };
}

/** Enables or disables an endpoint (enabling clears why it was disabled); a toast says which. */
export function useSetWebhookEnabled(wallet: string, webhook: Webhook) {
  const refresh = useRefreshWebhooks();
  const mutation = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async ({ webhook: updated }) => {
        await refresh();
        showToast(
          updated.enabled
            ? `Endpoint ${updated.url} enabled: it receives events again.`
            : `Endpoint ${updated.url} disabled: it receives no events until you enable it.`,
        );
      },
    }),
  );
  useResetSessionErrorOnReturn(mutation.error, mutation.reset);
  return { ...mutation, set: (enabled: boolean) => mutation.mutate({ wallet, id: webhook.id, enabled }) };
}

/** "Send test event": one `webhook.test` message to this endpoint; the log shows it pending, then settled. */
export function useSendTestEvent(wallet: string, webhook: Webhook) {
  const refresh = useRefreshWebhooks();
  const mutation = useMutation(
    trpc.webhooks.test.mutationOptions({
      onSuccess: async () => {
        await refresh();
        showToast(`Test event sent to ${webhook.url}.`);
      },
    }),
  );
  useResetSessionErrorOnReturn(mutation.error, mutation.reset);
  return { ...mutation, send: () => mutation.mutate({ wallet, id: webhook.id }) };
}

/** "Redeliver" one delivery: the same message (same webhook-id) is sent again. */
export function useRedeliver(wallet: string, webhook: Webhook) {
  const refresh = useRefreshWebhooks();
  const mutation = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: async () => {
        await refresh();
        showToast("Redelivery queued: the same message goes out again.");
      },
    }),
  );
  useResetSessionErrorOnReturn(mutation.error, mutation.reset);
  return {
    ...mutation,
    redeliver: (deliveryId: string) => mutation.mutate({ wallet, id: webhook.id, deliveryId }),
  };
}
