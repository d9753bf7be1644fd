import { useEffect, useId, useRef } from "react";
import { CopyButton } from "../../ui/CopyButton";
import { usageExampleCall, usageExampleCode, usageExampleInstall } from "./usage-example";

/**
 * The secret, shown once: "Copy", a warning that it cannot be shown again, optionally how to protect a
 * backend with it (`@keyport/verify`: the code, the install line and a test call, each with its own copy
 * button), and "Done". Leaving before a copy asks first (`asking`, from useGuardedClose). Nothing stores
 * the secret; closing the dialog drops it.
 */
export function SecretReveal({
  secret,
  onDone,
  exampleServerUrl,
  onCopied,
  asking = false,
  onStay,
  onLeave,
}: {
  secret: string;
  /** "Done": the guarded close's `request`. */
  onDone: () => void;
  /**
   * When set, show how to use the key with `@keyport/verify` against this Keyport server (the "key
   * created" dialog passes the proxy's `serverUrl`).
   */
  exampleServerUrl?: string;
  /** The secret went to the clipboard: leaving no longer asks. */
  onCopied?: () => void;
  /** Show "Close without copying?" in place of the actions. */
  asking?: boolean;
  onStay?: () => void;
  onLeave?: () => void;
}) {
  const exampleTitle = useId();
  const stayRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) stayRef.current?.focus();
  }, [asking]);

  return (
    <div className="secret">
      <p className="warning">
        <strong>Copy this key now.</strong> Keyport stores only its hash: it will not be shown again.
      </p>
      <code className="secret-value">{secret}</code>
      {exampleServerUrl !== undefined ? (
        <section className="example" aria-labelledby={exampleTitle}>
          <h3 id={exampleTitle}>
            Use it with <span className="nowrap">@keyport/verify</span>
          </h3>
          <ExampleBlock
            label="Example code"
            copyLabel="Copy code"
            text={usageExampleCode(exampleServerUrl)}
          />
          <p className="hint">
            @keyport/verify is not on npm yet: in a Keyport checkout, <kbd>pnpm pack:public</kbd> writes its
            tarball to <kbd>packed/</kbd>; install it in your backend with this line (more in the
            repository&apos;s docs/backend.md):
          </p>
          <ExampleBlock
            label="Install command"
            copyLabel="Copy install command"
            text={usageExampleInstall()}
          />
          <ExampleBlock label="Test call" copyLabel="Copy test call" text={usageExampleCall(secret)} />
        </section>
      ) : null}
      {asking ? (
        <fieldset className="dialog-question">
          <legend>
            <strong>Close without copying?</strong> The key cannot be shown again.
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

function ExampleBlock({ label, copyLabel, text }: { label: string; copyLabel: string; text: string }) {
  return (
    <div className="example-block">
      <section className="example-code" aria-label={label}>
        <pre>{text}</pre>
      </section>
      <CopyButton text={text} label={copyLabel} />
    </div>
  );
}
