import { useQuery } from "@tanstack/react-query";
import { isWorthRetrying } from "../../lib/query-client";
import { readSession, SESSION_QUERY_KEY } from "../../lib/session-api";

/** The signed-in wallet (`data`), `null` when signed out; a 401 anywhere sets it to null. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: readSession,
    staleTime: Number.POSITIVE_INFINITY,
    // The whole page waits on this answer: one quick retry of a refused connection, then say the
    // server is down; a timeout (504) is said at once, after the proxy's one wait.
    retry: (failureCount, error) => failureCount < 1 && isWorthRetrying(error),
    retryDelay: 500,
  });
}
