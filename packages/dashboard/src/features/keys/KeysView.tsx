import { useMemo } from "react";
import { formatCount } from "../../lib/format";
import { navigate, useSearch } from "../../lib/router";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { CreateKeyDialog } from "./CreateKeyDialog";
import { KeyCapNotice } from "./KeyCapNotice";
import { KeysPager } from "./KeysPager";
import { KeysTable } from "./KeysTable";
import {
  DEFAULT_KEYS_LIST_STATE,
  formatKeysListSearch,
  KEY_SORTS,
  KEY_STATUS_FILTERS,
  type KeysListState,
  parseKeysListState,
} from "./list-state";
import { pageOf, selectKeys } from "./select-keys";
import { useAllKeys } from "./use-all-keys";

const PAGE_SIZE = 20;

/**
 * The keys of the signed-in wallet: search, status filter, sort, the total, the table (cards on a phone)
 * and pages, with "Create key". The list's state lives in the URL (`?q=&status=&sort=&page=`).
 */
export function KeysView({ wallet }: { wallet: string }) {
  const search = useSearch();
  const state = useMemo(() => parseKeysListState(search), [search]);
  const all = useAllKeys(wallet);
  const selected = useMemo(() => (all.data ? selectKeys(all.data.keys, state) : []), [all.data, state]);
  const page = pageOf(selected, state.page, PAGE_SIZE);

  // Typing replaces the entry (back skips keystrokes); a filter, sort or page is a step back can undo.
  function update(change: Partial<KeysListState>, options: { replace?: boolean } = {}) {
    const next = { ...state, page: 1, ...change };
    navigate(`/keys${formatKeysListSearch(next)}`, { ...options, keepScroll: change.page === undefined });
  }

  const filtered = state.q.trim() !== "" || state.status !== "all";

  return (
    <section aria-labelledby="keys-title">
      <div className="view-header">
        <h1 id="keys-title">Keys</h1>
        <CreateKeyDialog />
      </div>
      {all.data ? <KeyCapNotice keys={all.data.keys} cap={all.data.activeKeyCap} /> : null}
      <search className="toolbar" aria-label="Find keys">
        <label className="field field-inline">
          <span>Search</span>
          <input
            type="search"
            placeholder="Name or start (kp_…)"
            value={state.q}
            onChange={(event) => update({ q: event.currentTarget.value }, { replace: true })}
          />
        </label>
        <label className="field field-inline">
          <span>Status</span>
          <select
            value={state.status}
            onChange={(event) => {
              const status = KEY_STATUS_FILTERS.find((option) => option.id === event.currentTarget.value);
              update({ status: status?.id ?? DEFAULT_KEYS_LIST_STATE.status });
            }}
          >
            {KEY_STATUS_FILTERS.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-inline">
          <span>Sort by</span>
          <select
            value={state.sort}
            onChange={(event) => {
              const sort = KEY_SORTS.find((option) => option.id === event.currentTarget.value);
              update({ sort: sort?.id ?? DEFAULT_KEYS_LIST_STATE.sort });
            }}
          >
            {KEY_SORTS.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </search>
      {all.isPending ? (
        <Loading label="Loading keys…" />
      ) : all.isError ? (
        <ErrorMessage error={all.error} onRetry={() => all.refetch()} />
      ) : (
        <>
          <p className="muted" role="status">
            {filtered
              ? `${formatCount(selected.length)} of ${formatCount(all.data.keys.length)} keys match`
              : `${formatCount(all.data.keys.length)} ${all.data.keys.length === 1 ? "key" : "keys"}`}
            {all.data.truncated ? " (only the newest are listed)" : ""}
          </p>
          {selected.length === 0 ? (
            <Empty>
              <p>
                {all.data.keys.length === 0 ? "No keys yet. Create one to get started." : "No key matches."}
              </p>
              {filtered && all.data.keys.length > 0 ? (
                <button type="button" className="button" onClick={() => update({ q: "", status: "all" })}>
                  Clear search and filter
                </button>
              ) : null}
            </Empty>
          ) : (
            <>
              <KeysTable keys={page.items} />
              {page.pages > 1 ? (
                <KeysPager page={page.page} pages={page.pages} onPage={(next) => update({ page: next })} />
              ) : null}
            </>
          )}
        </>
      )}
    </section>
  );
}
