import { type ReactNode, useEffect, useRef } from "react";
import { CopyButton } from "./CopyButton";
import type { GuardedClose } from "./use-guarded-close";

/** The props of {@link SecretOnce}. */
export interface SecretOnceProps {
  /** What the secret is called in the question before leaving: "The key cannot be shown again." */
  label: string;
  /** The secret itself; nothing stores it, closing the dialog drops it. */
  secret: string;
  /** The warning above it: copy it now, it will not be shown again (and why). */
  warning: ReactNode;
  /** The dialog's guarded close: "Done" requests it, "Copy" marks the secret copied. */
  guard: GuardedClose;
  /** What else to say under the secret (how to use it, what happens to the old one). */
  children?: ReactNode;
}

/**
 * A secret shown once (a new key, a webhook's signing secret): the warning, the secret with "Copy"
 * beside it (focused when it appears), what the caller adds, then "Done". Leaving before a copy asks "Close without copying?" in place of the
 * actions, with focus on "Go back" (the rule lives in useGuardedClose).
 *
 * @example
 * <SecretOnce label="key" secret={data.key} warning={<strong>Copy this key now.</strong>} guard={guard} />
 */
export function SecretOnce({ label, secret, warning, guard, children }: SecretOnceProps) {
  const stayRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (guard.asking) stayRef.current?.focus();
  }, [guard.asking]);

  return (
    <div className="secret">
      <p className="warning">{warning}</p>
      {/* Copy beside the secret, and focused as it appears: the one thing to do next. */}
      <div className="secret-row">
        <code className="secret-value">{secret}</code>
        {guard.asking ? null : (
          <CopyButton text={secret} label="Copy" onCopied={guard.markCopied} autoFocus />
        )}
      </div>
      {children}
      {guard.asking ? (
        <fieldset className="dialog-question">
          <legend>
            <strong>Close without copying?</strong> The {label} cannot be shown again.
          </legend>
          <div className="dialog-actions">
            <button ref={stayRef} type="button" className="button" onClick={guard.cancel}>
              Go back
            </button>
            <button type="button" className="button button-danger" onClick={guard.confirm}>
              Close without copying
            </button>
          </div>
        </fieldset>
      ) : (
        <div className="dialog-actions">
          <button type="button" className="button button-primary" onClick={guard.request}>
            Done
          </button>
        </div>
      )}
    </div>
  );
}
