import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { errorStatus, isUnauthorized } from "./errors";
import { SESSION_QUERY_KEY } from "./session-api";

// A 401 from any call means the session ended (expired, signed out elsewhere): flip the page to the
// sign-in screen instead of showing an error in the view that happened to ask.
function onError(error: unknown): void {
  if (isUnauthorized(error)) queryClient.setQueryData(SESSION_QUERY_KEY, null);
}

/** The one query client: server state lives here, never copied into component state. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // 4xx answers will not change on retry; a network blip or a 5xx might.
      retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});

function isClientError(error: unknown): boolean {
  const status = errorStatus(error);
  return status !== undefined && status >= 400 && status < 500;
}
