import { useId } from "react";
import { CopyButton } from "../../ui/CopyButton";
import { SecretOnce } from "../../ui/SecretOnce";
import type { GuardedClose } from "../../ui/use-guarded-close";
import { usageExampleCall, usageExampleCode, usageExampleInstall } from "./usage-example";

/**
 * A new key's secret, shown once (ui/SecretOnce: "Copy", the warning, "Done", asking before a close
 * without a copy), optionally with how to protect a backend with it (`@keyport/verify`: the code, the
 * install line and a test call, each with its own copy button).
 */
export function SecretReveal({
  secret,
  guard,
  exampleServerUrl,
}: {
  secret: string;
  /** The dialog's guarded close (useGuardedClose). */
  guard: GuardedClose;
  /**
   * When set, show how to use the key with `@keyport/verify` against this Keyport server (the "key
   * created" dialog passes the proxy's `serverUrl`).
   */
  exampleServerUrl?: string;
}) {
  const exampleTitle = useId();
  return (
    <SecretOnce
      label="key"
      secret={secret}
      guard={guard}
      warning={
        <>
          <strong>Copy this key now.</strong> Keyport stores only its hash: it will not be shown again.
        </>
      }
    >
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
    </SecretOnce>
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
