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
import { useKeyCount, useKeysPage } from "./use-keys-page";

/**
 * The keys of the signed-in wallet: search, status filter, sort, the total, the table (cards on a phone)
 * and pages, with "Create key". The list's state lives in the URL (`?q=&status=&sort=&page=`).
 */
export function KeysView({ wallet }: { wallet: string }) {
  const search = useSearch();
  const state = useMemo(() => parseKeysListState(search), [search]);
  const list = useKeysPage(wallet, state);
  const all = useKeyCount(wallet, "all");
  const active = useKeyCount(wallet, "active");

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
      {active.data ? <KeyCapNotice active={active.data.count} cap={active.data.activeKeyCap} /> : null}
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
      {list.isPending ? (
        <Loading label="Loading keys…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <>
          <p className="muted" role="status">
            {filtered
              ? `${formatCount(list.data.total)} of ${all.data ? formatCount(all.data.count) : "…"} keys match`
              : `${formatCount(list.data.total)} ${list.data.total === 1 ? "key" : "keys"}`}
          </p>
          {list.data.keys.length === 0 ? (
            <Empty>
              <p>{filtered ? "No key matches." : "No keys yet. Create one to get started."}</p>
              {filtered ? (
                <button type="button" className="button" onClick={() => update({ q: "", status: "all" })}>
                  Clear search and filter
                </button>
              ) : null}
            </Empty>
          ) : (
            <>
              <KeysTable keys={list.data.keys} />
              {list.data.pages > 1 ? (
                <KeysPager
                  page={list.data.page}
                  pages={list.data.pages}
                  onPage={(next) => update({ page: next })}
                />
              ) : null}
            </>
          )}
        </>
      )}
    </section>
  );
}
