import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { rememberEndedSession } from "./ended-session";
import { errorStatus, isUnauthorized } from "./errors";
import { SESSION_QUERY_KEY, type Session } from "./session-api";

// A 401 from any call means the session ended (expired, signed out elsewhere): say so and ask to sign
// in again over the page as it was (its half-filled forms kept), instead of an error in the view that
// happened to ask.
function onError(error: unknown): void {
  if (!isUnauthorized(error)) return;
  const current = queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY);
  if (current) rememberEndedSession(current);
  queryClient.setQueryData(SESSION_QUERY_KEY, null);
}

/** The one query client: server state lives here, never copied into component state. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // 4xx answers will not change on retry; a network blip or a 5xx might. A timeout (504) is not
      // retried: the user hears of a hung server after one wait, not three, and retries by hand.
      retry: (failureCount, error) => isWorthRetrying(error) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** False for answers a retry will not change (4xx) and for a timeout (504), which already waited. */
export function isWorthRetrying(error: unknown): boolean {
  const status = errorStatus(error);
  if (status === undefined) return true;
  return status >= 500 && status !== 504;
}
