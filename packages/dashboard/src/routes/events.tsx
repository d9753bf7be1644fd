import { EventsView } from "../features/events/EventsView";

/** `/events` (lazy-loaded: most visits never open it). */
export function EventsRoute({ wallet }: { wallet: string }) {
  return <EventsView wallet={wallet} />;
}
