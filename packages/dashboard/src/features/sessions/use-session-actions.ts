import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { trpc } from "../../lib/trpc";
import { showToast } from "../../ui/toast";

/** Ends one of the wallet's sessions; the toast names it by `words` ("Chrome on Linux"). */
export function useEndSession(words: string) {
  const queryClient = useQueryClient();
  const end = useMutation(
    trpc.auth.endSession.mutationOptions({
      onSuccess: async () => {
        showToast(`Signed out ${words}.`);
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.pathKey() });
      },
    }),
  );
  useResetSessionErrorOnReturn(end.error, end.reset);
  return end;
}

/** Ends every session of the wallet but this one; the toast says how many ended. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  const endOthers = useMutation(
    trpc.auth.endOtherSessions.mutationOptions({
      onSuccess: async ({ ended }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.pathKey() });
        showToast(
          ended === 0
            ? "There were no other sessions to sign out."
            : `Signed out ${ended} other ${ended === 1 ? "session" : "sessions"}.`,
        );
      },
    }),
  );
  useResetSessionErrorOnReturn(endOthers.error, endOthers.reset);
  return endOthers;
}
