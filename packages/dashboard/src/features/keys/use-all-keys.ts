import { MAX_PAGE_LIMIT } from "@keyport/server/schemas";
import { useQuery } from "@tanstack/react-query";
import { trpc, trpcClient } from "../../lib/trpc";
import type { ApiKey } from "./key-status";

/** Pages read at most (MAX_PAGE_LIMIT keys each): beyond, the list says it shows only the newest. */
const MAX_PAGES = 50;

/** Every key of the wallet, whether the page bound stopped the reading first, and the server's active-key cap. */
export interface AllKeys {
  keys: ApiKey[];
  truncated: boolean;
  /** The most active keys the wallet may hold (the server's MAX_ACTIVE_KEYS_PER_WALLET, from `keys.list`). */
  activeKeyCap: number;
}

async function readAllKeys(wallet: string): Promise<AllKeys> {
  const keys: ApiKey[] = [];
  let cursor: string | undefined;
  let activeKeyCap = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await trpcClient.keys.list.query({ wallet, status: "all", limit: MAX_PAGE_LIMIT, cursor });
    keys.push(...answer.keys);
    activeKeyCap = answer.activeKeyCap;
    if (answer.nextCursor === null) return { keys, truncated: false, activeKeyCap };
    cursor = answer.nextCursor;
  }
  return { keys, truncated: true, activeKeyCap };
}

/**
 * All of the wallet's keys, read page by page through `keys.list`: the key page finds its key here,
 * as the server has no procedure that reads one key by id (the list itself reads one page at a time,
 * use-keys-page.ts). Its query key starts with `keys.list`'s, so every change that refreshes the list
 * refreshes this too.
 */
export function useAllKeys(wallet: string) {
  return useQuery({
    queryKey: [...trpc.keys.list.pathKey(), { type: "every-page", wallet }],
    queryFn: () => readAllKeys(wallet),
  });
}
