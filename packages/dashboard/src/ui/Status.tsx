import type { ReactNode } from "react";
import { describeError, type Service } from "../lib/errors";

/** A polite "loading" line that screen readers announce. */
export function Loading({ label }: { label: string }) {
  return (
    <p role="status" className="status status-loading">
      {label}
    </p>
  );
}

/** An error as a sentence naming the service that failed, with a retry button when the caller can retry. */
export function ErrorMessage({
  error,
  onRetry,
  service,
}: {
  error: unknown;
  onRetry?: () => void;
  service?: Service;
}) {
  return (
    <div role="alert" className="status status-error">
      <p>{describeError(error, service)}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** What a view says when there is nothing to show yet. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="status status-empty">{children}</div>;
}
