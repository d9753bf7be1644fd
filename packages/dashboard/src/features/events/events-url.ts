import { KEY_EVENT_ACTIONS, KEY_ID_PATTERN } from "@keyport/server/schemas";
import type { KeyEvent } from "./event-words";

/** The activity view's address; the older `/events` redirects here, its query kept. */
export const ACTIVITY_PATH = "/activity";

/** The activity view's filters as its URL keeps them: `/activity?key=<key id>&action=key.revoked`. */
export interface EventsFilter {
  keyId: string | undefined;
  action: KeyEvent["action"] | undefined;
}

/** Reads the filters from a `location.search`; unknown values mean "all". */
export function parseEventsSearch(search: string): EventsFilter {
  const params = new URLSearchParams(search);
  const key = params.get("key");
  const action = params.get("action");
  return {
    keyId: key !== null && KEY_ID_PATTERN.test(key) ? key : undefined,
    action: KEY_EVENT_ACTIONS.find((candidate) => candidate === action),
  };
}

/** The view's URL for a filter. */
export function eventsHref(filter: EventsFilter): string {
  const params = new URLSearchParams();
  if (filter.keyId !== undefined) params.set("key", filter.keyId);
  if (filter.action !== undefined) params.set("action", filter.action);
  const query = params.toString();
  return query === "" ? ACTIVITY_PATH : `${ACTIVITY_PATH}?${query}`;
}
