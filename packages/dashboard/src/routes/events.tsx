import { EventsView } from "../features/events/EventsView";

/** `/activity` (lazy-loaded: most visits never open it). */
export function EventsRoute({ wallet }: { wallet: string }) {
  return <EventsView wallet={wallet} />;
}
