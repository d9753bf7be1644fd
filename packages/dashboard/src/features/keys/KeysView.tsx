import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { CreateKeyDialog } from "./CreateKeyDialog";
import { KeysTable } from "./KeysTable";

const STATUSES = ["all", "active", "revoked", "expired"] as const;
type StatusFilter = (typeof STATUSES)[number];
const PAGE_SIZE = 20;

/** The keys of the signed-in wallet: status filter, table, pages, and "Create key". */
export function KeysView({ wallet }: { wallet: string }) {
  const [status, setStatus] = useState<StatusFilter>("all");
  // Cursors of the pages seen so far, so "Previous page" needs no cursor from the server.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const list = useQuery(trpc.keys.list.queryOptions({ wallet, status, limit: PAGE_SIZE, cursor }));

  return (
    <section aria-labelledby="keys-title">
      <div className="view-header">
        <h1 id="keys-title">Keys</h1>
        <CreateKeyDialog />
      </div>
      <div className="toolbar">
        <label className="field field-inline">
          <span>Status</span>
          <select
            value={status}
            onChange={(event) => {
              const value = STATUSES.find((option) => option === event.currentTarget.value) ?? "all";
              setStatus(value);
              setCursors([undefined]);
            }}
          >
            {STATUSES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.isPending ? (
        <Loading label="Loading keys…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.keys.length === 0 ? (
        <Empty>
          <p>{status === "all" ? "No keys yet. Create one to get started." : `No ${status} keys.`}</p>
        </Empty>
      ) : (
        <>
          <KeysTable keys={list.data.keys} />
          <nav className="pager" aria-label="Pages of keys">
            <button
              type="button"
              className="button"
              disabled={cursors.length === 1}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous page
            </button>
            <span>Page {cursors.length}</span>
            <button
              type="button"
              className="button"
              disabled={list.data.nextCursor === null}
              onClick={() => {
                const next = list.data.nextCursor;
                if (next !== null) setCursors([...cursors, next]);
              }}
            >
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
