import { useQuery } from "@tanstack/react-query";
import { formatCount } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { RelativeTime } from "../../ui/RelativeTime";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";
import { RevokeAnyKeyButton } from "./RevokeAnyKeyButton";

/** How many of a wallet's keys the page lists (its newest). */
const KEYS_SHOWN = 100;

/** A wallet's keys as its owner sees them (no secrets), newest first, each active one with "Revoke". */
export function WalletKeys({ wallet }: { wallet: string }) {
  const keys = useQuery(trpc.operator.wallets.keys.queryOptions({ wallet, limit: KEYS_SHOWN }));
  const now = useNow();
  const list = keys.data?.keys ?? [];
  return (
    <section className="key-section" aria-labelledby="wallet-keys-title">
      <h2 id="wallet-keys-title">Keys</h2>
      {keys.isPending ? <Loading label="Loading keys…" /> : null}
      {keys.isError ? <ErrorMessage error={keys.error} onRetry={() => keys.refetch()} /> : null}
      {keys.data && list.length === 0 ? <Empty>This wallet holds no key.</Empty> : null}
      {keys.data && keys.data.total > list.length ? (
        <p className="muted">
          The newest {formatCount(list.length)} of {formatCount(keys.data.total)} keys.
        </p>
      ) : null}
      {list.length > 0 ? (
        <TableScroll label="Keys of this wallet">
          <table className="table card-table" aria-labelledby="wallet-keys-title">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <tr key={key.id}>
                  <th scope="row">
                    {key.name}
                    {key.issuedBy === null ? null : <span className="badge">issued</span>}
                  </th>
                  <td data-label="Key">
                    <code>{key.start}…</code>
                  </td>
                  <td data-label="Status">
                    <span className={`badge badge-${key.status}`}>{key.status}</span>
                  </td>
                  <td data-label="Created">
                    <RelativeTime value={key.createdAt} now={now} empty="never" />
                  </td>
                  <td data-label="Last used">
                    <RelativeTime value={key.lastUsedAt} now={now} empty="never" />
                  </td>
                  <td className="actions-cell">
                    {key.status === "active" ? <RevokeAnyKeyButton wallet={wallet} apiKey={key} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}
