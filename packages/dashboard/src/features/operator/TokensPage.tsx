import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { RelativeTime } from "../../ui/RelativeTime";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { showToast } from "../../ui/toast";
import { useNow } from "../../ui/use-now";
import { CreateTokenDialog } from "./CreateTokenDialog";
import type { OperatorToken } from "./operator-types";
import { scopesWords, tokenStatusWords } from "./operator-words";

/** Operator tokens for scripts and backends: create (shown once), list, revoke (docs/operator.md#tokens). */
export function TokensPage() {
  const tokens = useQuery(trpc.operator.tokens.list.queryOptions({ limit: 100 }));
  const now = useNow();
  const list = tokens.data?.tokens ?? [];
  return (
    <section aria-labelledby="tokens-title">
      <div className="view-header">
        <h1 id="tokens-title">Operator tokens</h1>
        <CreateTokenDialog />
      </div>
      <p className="muted">
        For your own scripts and backends: send one as <code>Authorization: Bearer</code> to the operator API.
        Each does only what its scopes allow; only a signed-in operator creates or revokes them.
      </p>
      {tokens.isPending ? <Loading label="Loading tokens…" /> : null}
      {tokens.isError ? <ErrorMessage error={tokens.error} onRetry={() => tokens.refetch()} /> : null}
      {tokens.data && list.length === 0 ? <Empty>No operator token yet.</Empty> : null}
      {list.length > 0 ? (
        <TableScroll label="Tokens table">
          <table className="table card-table" aria-labelledby="tokens-title">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((token) => (
                <tr key={token.id}>
                  <th scope="row">
                    {token.name} <code className="muted">{token.start}…</code>
                  </th>
                  <td data-label="Scopes">{scopesWords(token.scopes)}</td>
                  <td data-label="Status">
                    <span className={`badge badge-${token.status}`}>{tokenStatusWords(token)}</span>
                  </td>
                  <td data-label="Created">
                    <RelativeTime value={token.createdAt} now={now} empty="never" />
                  </td>
                  <td data-label="Last used">
                    <RelativeTime value={token.lastUsedAt} now={now} empty="never" />
                  </td>
                  <td data-label="Expires">
                    <RelativeTime value={token.expiresAt} now={now} empty="never" />
                  </td>
                  <td className="actions-cell">
                    {token.status === "active" ? <RevokeTokenButton token={token} /> : null}
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

function RevokeTokenButton({ token }: { token: OperatorToken }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const revoke = useMutation(
    trpc.operator.tokens.revoke.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.operator.tokens.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.operator.audit.list.pathKey() }),
        ]);
        close();
        showToast(`Token “${token.name}” revoked.`);
      },
    }),
  );
  useResetSessionErrorOnReturn(revoke.error, revoke.reset);

  function close() {
    setOpen(false);
    revoke.reset();
  }

  return (
    <>
      <button
        type="button"
        className="button button-small button-danger"
        aria-label={`Revoke token “${token.name}”`}
        onClick={() => setOpen(true)}
      >
        Revoke
      </button>
      <Dialog open={open} onClose={close} title={`Revoke token “${token.name}”?`}>
        <p>
          Every request with it is refused from the next one on, on every instance. This cannot be undone.
        </p>
        <FormAlert error={revoke.isError ? describeError(revoke.error) : null} />
        <DialogActions
          onCancel={close}
          confirmLabel="Revoke token"
          busy={revoke.isPending}
          tone="danger"
          onConfirm={() => revoke.mutate({ id: token.id })}
        />
      </Dialog>
    </>
  );
}
