import { SessionsView } from "../features/sessions/SessionsView";

/** `/sessions` (lazy-loaded: most visits never open it). */
export function SessionsRoute() {
  return <SessionsView />;
}
