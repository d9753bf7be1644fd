import type { QueryClient } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

/**
 * Marks every read of the wallet's keys stale after a change to one: the list's pages (`keys.list`)
 * each key page's key (`keys.get`) and its limits (`keys.rateLimitUse`). Resolves once the reads on screen are fresh again.
 * @example onSuccess: () => invalidateKeys(queryClient)
 */
export async function invalidateKeys(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.keys.list.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.keys.get.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.keys.rateLimitUse.pathKey() }),
  ]);
}
