import { useId, useState } from "react";
import { usageExample } from "./usage-example";

type CopyState = "no" | "yes" | "failed";

async function copyText(text: string): Promise<CopyState> {
  try {
    await navigator.clipboard.writeText(text);
    return "yes";
  } catch {
    return "failed";
  }
}

/**
 * The secret, shown once: a "Copy" button, a warning that it cannot be shown again, optionally a short
 * example of protecting a backend with it (`@keyport/verify`), and "Done". Nothing stores it; closing
 * the dialog drops it.
 */
export function SecretReveal({
  secret,
  onDone,
  exampleServerUrl,
}: {
  secret: string;
  onDone: () => void;
  /**
   * When set, show how to use the key with `@keyport/verify` against this Keyport server (the "key
   * created" dialog passes the proxy's `serverUrl`).
   */
  exampleServerUrl?: string;
}) {
  const [copied, setCopied] = useState<CopyState>("no");
  const [exampleCopied, setExampleCopied] = useState<CopyState>("no");
  const exampleTitle = useId();
  const example = exampleServerUrl === undefined ? "" : usageExample(secret, exampleServerUrl);

  return (
    <div className="secret">
      <p className="warning">
        <strong>Copy this key now.</strong> Keyport stores only its hash: it will not be shown again.
      </p>
      <code className="secret-value">{secret}</code>
      <p role="status" className="status">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? "Copy failed: select the key and copy it by hand."
            : ""}
      </p>
      {exampleServerUrl !== undefined ? (
        <section className="example" aria-labelledby={exampleTitle}>
          <div className="example-header">
            <h3 id={exampleTitle}>
              Use it with <span className="nowrap">@keyport/verify</span>
            </h3>
            <button
              type="button"
              className="button button-small"
              onClick={async () => setExampleCopied(await copyText(example))}
            >
              Copy example
            </button>
          </div>
          <section className="example-code" aria-label="Example code">
            <pre>{example}</pre>
          </section>
          <p className="hint">
            baseUrl is your Keyport server. @keyport/verify is not on npm yet: in a Keyport checkout,{" "}
            <kbd>pnpm pack:public</kbd> writes its tarball to <kbd>packed/</kbd>, then{" "}
            <kbd>npm install /path/to/keyport/packed/keyport-verify-*.tgz</kbd>. More in the repository&apos;s
            docs/backend.md.
          </p>
          <p role="status" className="status">
            {exampleCopied === "yes"
              ? "Example copied."
              : exampleCopied === "failed"
                ? "Copy failed: select the example and copy it by hand."
                : ""}
          </p>
        </section>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={async () => setCopied(await copyText(secret))}>
          Copy
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
