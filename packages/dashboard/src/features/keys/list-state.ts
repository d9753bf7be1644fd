/** How the keys list is sorted: newest first, most recently used first, or by name (A to Z). */
export const KEY_SORTS = [
  { id: "created", label: "Created (newest first)" },
  { id: "last-used", label: "Last used (most recent first)" },
  { id: "name", label: "Name (A to Z)" },
] as const;
export type KeySort = (typeof KEY_SORTS)[number]["id"];

/** Which keys the list shows by status. */
export const KEY_STATUS_FILTERS = [
  { id: "all", label: "All" },
  { id: "active", label: "Active" },
  { id: "revoked", label: "Revoked" },
  { id: "expired", label: "Expired" },
] as const;
export type KeyStatusFilter = (typeof KEY_STATUS_FILTERS)[number]["id"];

/** The keys list's state as the URL carries it (`?q=&status=&sort=&page=`), so reload and back keep it. */
export interface KeysListState {
  q: string;
  status: KeyStatusFilter;
  sort: KeySort;
  /** 1-based. */
  page: number;
}

export const DEFAULT_KEYS_LIST_STATE: KeysListState = { q: "", status: "all", sort: "created", page: 1 };

const MAX_QUERY_LENGTH = 100;

/** Reads the list state from `location.search`; anything unknown or malformed falls back to its default. */
export function parseKeysListState(search: string): KeysListState {
  const params = new URLSearchParams(search);
  const status = KEY_STATUS_FILTERS.find((option) => option.id === params.get("status"))?.id;
  const sort = KEY_SORTS.find((option) => option.id === params.get("sort"))?.id;
  const page = Number(params.get("page"));
  return {
    q: (params.get("q") ?? "").slice(0, MAX_QUERY_LENGTH),
    status: status ?? DEFAULT_KEYS_LIST_STATE.status,
    sort: sort ?? DEFAULT_KEYS_LIST_STATE.sort,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query string of a list state (`?q=pay&sort=name`), leaving defaults out; "" when all are defaults. */
export function formatKeysListSearch(state: KeysListState): string {
  const params = new URLSearchParams();
  if (state.q !== "") params.set("q", state.q);
  if (state.status !== DEFAULT_KEYS_LIST_STATE.status) params.set("status", state.status);
  if (state.sort !== DEFAULT_KEYS_LIST_STATE.sort) params.set("sort", state.sort);
  if (state.page !== 1) params.set("page", String(state.page));
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}
