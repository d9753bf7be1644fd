import { useQuery } from "@tanstack/react-query";
import { readSession, SESSION_QUERY_KEY } from "../../lib/session-api";

/** The signed-in wallet (`data`), `null` when signed out; a 401 anywhere sets it to null. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: readSession,
    staleTime: Number.POSITIVE_INFINITY,
    // The whole page waits on this answer: one quick retry, then say the server is down.
    retry: 1,
    retryDelay: 500,
  });
}
