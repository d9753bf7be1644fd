import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

/** The wallet's webhook endpoints (at most 10, so one request holds them all). */
export function useWebhooks(wallet: string) {
  return useQuery(trpc.webhooks.list.queryOptions({ wallet }));
}

/** How often the delivery log refreshes while a delivery is still pending (docs/dashboard.md, Webhooks). */
export const PENDING_POLL_MS = 2_000;

/**
 * One endpoint's delivery log, newest first: refreshed every 2 s while any delivery is pending (a retry
 * or a send on its way), and not at all once every one is settled.
 */
export function useDeliveries(wallet: string, id: string) {
  return useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ wallet, id }),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === "pending")
        ? PENDING_POLL_MS
        : false,
  });
}
