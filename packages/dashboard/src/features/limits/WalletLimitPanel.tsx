import { MAX_RATE_LIMIT_WINDOW_SECONDS } from "@keyport/server/schemas";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { formatRateLimit, parseRateLimit } from "../../lib/rate-limit";
import { trpc } from "../../lib/trpc";
import { ErrorMessage, Loading } from "../../ui/Status";
import { showToast } from "../../ui/toast";

/**
 * The wallet-wide limit: one window shared by all the wallet's keys, checked after each key's own.
 * Shows it, sets it (requests per seconds) and removes it (`limits.get` / `limits.set`).
 */
export function WalletLimitPanel({ wallet }: { wallet: string }) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.limits.get.queryOptions({ wallet }));
  const [limit, setLimit] = useState("");
  const [windowSeconds, setWindowSeconds] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const set = useMutation(
    trpc.limits.set.mutationOptions({
      onSuccess: (answer) => {
        queryClient.setQueryData(trpc.limits.get.queryKey({ wallet }), answer);
        showToast(answer.rateLimit === null ? "Wallet-wide limit removed." : "Wallet-wide limit saved.");
        setLimit("");
        setWindowSeconds("");
      },
    }),
  );
  useResetSessionErrorOnReturn(set.error, set.reset);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseRateLimit(limit, windowSeconds);
    if (!parsed.ok) {
      setFormError(parsed.message);
      return;
    }
    if (parsed.value === null) {
      setFormError("Enter the requests and the seconds, or use “Remove limit”.");
      return;
    }
    setFormError(null);
    set.mutate({ wallet, rateLimit: parsed.value });
  }

  const error = formError ?? (set.isError ? describeError(set.error) : null);
  const rateLimit = current.data?.rateLimit ?? null;

  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Wallet-wide limit</h2>
      <p className="muted">
        One window shared by all of this wallet&apos;s keys, checked after each key&apos;s own limit.
      </p>
      {current.isPending ? (
        <Loading label="Loading the wallet-wide limit…" />
      ) : current.isError ? (
        <ErrorMessage error={current.error} onRetry={() => current.refetch()} />
      ) : (
        <p>
          Now:{" "}
          <strong>{rateLimit === null ? "none" : `${formatRateLimit(rateLimit)} across all keys`}</strong>
        </p>
      )}
      <form className="limit-form" onSubmit={submit} noValidate>
        <label className="field">
          <span>Requests</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            value={limit}
            onChange={(event) => setLimit(event.currentTarget.value)}
          />
        </label>
        <label className="field">
          <span>Per seconds</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_RATE_LIMIT_WINDOW_SECONDS}
            value={windowSeconds}
            onChange={(event) => setWindowSeconds(event.currentTarget.value)}
          />
        </label>
        <div className="limit-actions">
          <button type="submit" className="button button-primary" disabled={set.isPending}>
            Set limit
          </button>
          {rateLimit === null ? null : (
            <button
              type="button"
              className="button"
              disabled={set.isPending}
              onClick={() => {
                setFormError(null);
                set.mutate({ wallet, rateLimit: null });
              }}
            >
              Remove limit
            </button>
          )}
        </div>
      </form>
      {error ? (
        <p role="alert" className="status-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
