import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { checksummed } from "../../lib/format";
import { navigate, useSearch } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { OperatorEventList } from "./OperatorEventList";
import { auditHref, parseAuditSearch } from "./operator-url";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The operator trail (`/operator/audit`, `?wallet=` keeps one wallet's), newest first, 50 at a time. */
export function AuditPage() {
  const search = useSearch();
  const { wallet } = parseAuditSearch(search);
  const [typed, setTyped] = useState(wallet ?? "");
  const [invalid, setInvalid] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const events = useInfiniteQuery(
    trpc.operator.audit.list.infiniteQueryOptions(
      { limit: 50, ...(wallet === undefined ? {} : { wallet }) },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const list = events.data?.pages.flatMap((page) => page.events) ?? [];

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Operator audit</h1>
      <p className="muted">
        Everything an operator did (sessions, tokens, the command line, leak reports), newest first, with who
        and why. A wallet&apos;s own trail is on its page.
      </p>
      <search aria-label="Filter the audit">
        <form
          className="toolbar"
          onSubmit={(event) => {
            event.preventDefault();
            const text = typed.trim();
            if (text !== "" && !ADDRESS.test(text)) {
              setInvalid(true);
              return;
            }
            setInvalid(false);
            navigate(auditHref(text === "" ? undefined : text), { keepScroll: true });
          }}
        >
          <div className="field">
            <label htmlFor={inputId}>Wallet</label>
            <input
              id={inputId}
              value={typed}
              spellCheck={false}
              autoComplete="off"
              placeholder="0x…"
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? errorId : undefined}
              onChange={(event) => setTyped(event.target.value)}
            />
            {invalid ? (
              <p id={errorId} className="field-error">
                A whole address: 0x and 40 hex digits.
              </p>
            ) : null}
          </div>
          <button type="submit" className="button">
            Filter
          </button>
          {wallet === undefined ? null : (
            <button
              type="button"
              className="button"
              onClick={() => {
                setTyped("");
                navigate(auditHref(undefined), { keepScroll: true });
              }}
            >
              Show every wallet
            </button>
          )}
        </form>
      </search>
      {wallet === undefined ? null : (
        <p>
          Actions on <code className="break">{checksummed(wallet)}</code>
        </p>
      )}
      {events.isPending ? <Loading label="Loading the audit trail…" /> : null}
      {events.isError ? <ErrorMessage error={events.error} onRetry={() => events.refetch()} /> : null}
      {events.data && list.length === 0 ? <Empty>No operator action recorded yet.</Empty> : null}
      {list.length > 0 ? <OperatorEventList events={list} showWallet={wallet === undefined} /> : null}
      {events.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={events.isFetchingNextPage}
          onClick={() => events.fetchNextPage()}
        >
          Show older
        </button>
      ) : null}
    </section>
  );
}
