import { useEffect, useRef } from "react";
import { useMeta } from "../../lib/meta";
import { CopyButton } from "../../ui/CopyButton";

/**
 * An endpoint's signing secret, shown once (after "Add endpoint" and "Rotate secret"), in the pattern of
 * the key's (features/keys/SecretReveal): "Copy", a warning, how to verify a request with it, and "Done";
 * leaving before a copy asks first (`asking`, from useGuardedClose). Nothing stores it.
 */
export function WebhookSecretReveal({
  secret,
  note,
  onDone,
  onCopied,
  asking,
  onStay,
  onLeave,
}: {
  secret: string;
  /** What else the user should know now ("The old secret keeps signing for 24 hours."). */
  note?: string;
  onDone: () => void;
  onCopied: () => void;
  asking: boolean;
  onStay: () => void;
  onLeave: () => void;
}) {
  const meta = useMeta();
  const stayRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) stayRef.current?.focus();
  }, [asking]);

  return (
    <div className="secret">
      <p className="warning">
        <strong>Copy this signing secret now.</strong> It will not be shown again; rotate it to get a new one.
      </p>
      <code className="secret-value">{secret}</code>
      {note !== undefined ? <p>{note}</p> : null}
      <p className="hint">
        Each request carries <code>webhook-id</code>, <code>webhook-timestamp</code> and{" "}
        <code>webhook-signature</code> headers, signed as{" "}
        <a href="https://www.standardwebhooks.com/" target="_blank" rel="noopener noreferrer">
          Standard Webhooks
        </a>{" "}
        sign them: verify the signature with this secret (any Standard Webhooks library does) and refuse a
        timestamp older than 5 minutes. How, with code: the repository&apos;s docs/webhooks.md, and the{" "}
        <a href={`${meta.serverUrl}/docs`} target="_blank" rel="noopener noreferrer">
          API reference
        </a>
        .
      </p>
      {asking ? (
        <fieldset className="dialog-question">
          <legend>
            <strong>Close without copying?</strong> The secret cannot be shown again.
          </legend>
          <div className="dialog-actions">
            <button ref={stayRef} type="button" className="button" onClick={onStay}>
              Go back
            </button>
            <button type="button" className="button button-danger" onClick={onLeave}>
              Close without copying
            </button>
          </div>
        </fieldset>
      ) : (
        <div className="dialog-actions">
          <CopyButton text={secret} label="Copy" onCopied={onCopied} />
          <button type="button" className="button button-primary" onClick={onDone}>
            Done
          </button>
        </div>
      )}
    </div>
  );
}
