import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { queryClient } from "../../lib/query-client";
import { trpc } from "../../lib/trpc";
import type { ApiKey } from "./key-status";
import type { KeySort, KeysListState } from "./list-state";

/** Keys a page of the list shows. */
export const KEYS_PAGE_SIZE = 20;

// The list's sorts as the server names them: newest and most recently used first, names A to Z.
const SERVER_SORTS = {
  created: { sort: "created", order: "desc" },
  "last-used": { sort: "lastUsed", order: "desc" },
  name: { sort: "name", order: "asc" },
} as const satisfies Record<KeySort, { sort: string; order: "asc" | "desc" }>;

// A page read a moment ago is reused to reach the next one; a change to the keys invalidates it.
const PAGE_FRESH_MS = 30_000;

/** One page of the list, which page it is (clamped to the last), and how many keys match in all. */
export interface KeysPage {
  keys: ApiKey[];
  page: number;
  pages: number;
  total: number;
}

async function readPage(wallet: string, state: KeysListState): Promise<KeysPage> {
  const base = {
    wallet,
    status: state.status,
    q: state.q.trim(),
    ...SERVER_SORTS[state.sort],
    limit: KEYS_PAGE_SIZE,
  };
  // The server pages by cursor: page n follows the cursors of pages 1 to n-1, each cached under its
  // own input, so "Next page" costs one request and only a reload of page n reads n.
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const answer = await queryClient.fetchQuery({
      ...trpc.keys.list.queryOptions({ ...base, cursor }),
      staleTime: PAGE_FRESH_MS,
    });
    const pages = Math.max(1, Math.ceil(answer.total / KEYS_PAGE_SIZE));
    if (page >= state.page || answer.nextCursor === null) {
      return { keys: answer.keys, page, pages, total: answer.total };
    }
    cursor = answer.nextCursor;
  }
}

/**
 * The page of the keys list the URL names: searched, filtered, sorted and counted by the server
 * (`keys.list`'s q, status, sort and total). Its query key starts with `keys.list`'s, so every change
 * that refreshes the list refreshes this too; the previous page stays shown while the next loads.
 */
export function useKeysPage(wallet: string, state: KeysListState) {
  return useQuery({
    queryKey: [...trpc.keys.list.pathKey(), { type: "view-page", wallet, ...state }],
    queryFn: () => readPage(wallet, state),
    placeholderData: keepPreviousData,
  });
}

/** How many keys the wallet holds with this status (`total` of a one-key page). */
export function useKeyCount(wallet: string, status: "all" | "active") {
  return useQuery({
    ...trpc.keys.list.queryOptions({ wallet, status, limit: 1 }),
    select: (answer) => ({ count: answer.total, activeKeyCap: answer.activeKeyCap }),
  });
}
