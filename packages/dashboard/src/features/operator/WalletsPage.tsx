import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { checksummed } from "../../lib/format";
import { Link, navigate, useSearch } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { RelativeTime } from "../../ui/RelativeTime";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";
import { CursorPager } from "./CursorPager";
import type { OperatorWallet } from "./operator-types";
import { isWalletSearch, parseWalletsSearch, type WalletsUrlState, walletsHref } from "./operator-url";
import { WALLET_SORTS } from "./operator-words";
import { useCursorPages } from "./use-cursor-pages";

const PAGE_SIZE = 50;

/**
 * Every wallet of the deployment: a search by the start of an address, a sort (last active, active
 * keys), 50 a page by cursor; the search and sort live in the URL (`?q=&sort=`).
 */
export function WalletsPage() {
  const search = useSearch();
  const params = new URLSearchParams(search);
  // The box shows what the URL holds, as typed; only a search the server takes is asked.
  const typed = params.get("q") ?? "";
  const state = parseWalletsSearch(search);
  const valid = isWalletSearch(typed);
  const pages = useCursorPages(`${state.q} ${state.sort}`);
  const now = useNow();
  const searchId = useId();
  const hintId = useId();
  const errorId = useId();

  const wallets = useQuery({
    enabled: valid,
    ...trpc.operator.wallets.list.queryOptions({
      ...(state.q === "" ? {} : { q: state.q }),
      sort: state.sort,
      limit: PAGE_SIZE,
      cursor: pages.cursor,
    }),
    placeholderData: keepPreviousData,
  });

  function go(next: WalletsUrlState, replace: boolean) {
    navigate(walletsHref(next), { replace, keepScroll: true });
  }

  const list = valid ? (wallets.data?.wallets ?? []) : [];
  return (
    <section aria-labelledby="wallets-title">
      <h1 id="wallets-title">Wallets</h1>
      <p className="muted">Every wallet that has signed in or holds a key. Open one to act on it.</p>
      <search className="toolbar" aria-label="Find wallets">
        <div className="field">
          <label htmlFor={searchId}>Search wallets</label>
          <input
            id={searchId}
            type="search"
            value={typed}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={valid ? undefined : true}
            aria-describedby={valid ? hintId : `${errorId} ${hintId}`}
            onChange={(event) => {
              // Typing replaces the history entry; the box keeps what was typed, even what the server refuses.
              go({ q: event.target.value, sort: state.sort }, true);
            }}
          />
          {valid ? null : (
            <p id={errorId} className="field-error">
              Type the start of an address: hex digits, with or without 0x.
            </p>
          )}
          <p id={hintId} className="hint">
            The start of an address, any case
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${searchId}-sort`}>Sort by</label>
          <select
            id={`${searchId}-sort`}
            value={state.sort}
            onChange={(event) => {
              const sort = WALLET_SORTS.find((option) => option.value === event.target.value)?.value;
              if (sort !== undefined) go({ q: typed, sort }, false);
            }}
          >
            {WALLET_SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </search>
      {valid && wallets.isPending ? <Loading label="Loading wallets…" /> : null}
      {wallets.isError ? <ErrorMessage error={wallets.error} onRetry={() => wallets.refetch()} /> : null}
      {valid && wallets.data && list.length === 0 ? (
        <Empty>{state.q === "" ? "No wallet has signed in yet." : `No wallet starts with ${state.q}.`}</Empty>
      ) : null}
      {list.length > 0 ? (
        <TableScroll label="Wallets table">
          <table className="table card-table" aria-labelledby="wallets-title">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Last active</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Active keys</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((wallet) => (
                <WalletRow key={wallet.address} wallet={wallet} now={now} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <CursorPager
        label="Pages of wallets"
        page={pages.page}
        hasNext={wallets.data?.nextCursor != null}
        onPrevious={pages.previous}
        onNext={() => {
          const next = wallets.data?.nextCursor;
          if (next != null) pages.next(next);
        }}
      />
    </section>
  );
}

function WalletRow({ wallet, now }: { wallet: OperatorWallet; now: Date }) {
  return (
    <tr>
      <th scope="row">
        <Link to={`/operator/wallets/${wallet.address}`} className="address-link">
          {checksummed(wallet.address)}
        </Link>
      </th>
      <td data-label="Last active">
        <RelativeTime value={wallet.lastActiveAt} now={now} empty="never" />
      </td>
      <td data-label="Last sign-in">
        <RelativeTime value={wallet.lastSignInAt} now={now} empty="never" />
      </td>
      <td data-label="Active keys">{wallet.activeKeys}</td>
      <td data-label="Status">
        {wallet.suspended === null ? (
          <span className="badge badge-active">Active</span>
        ) : (
          <span className="badge badge-revoked" title={wallet.suspended.reason}>
            Suspended
          </span>
        )}
      </td>
    </tr>
  );
}
