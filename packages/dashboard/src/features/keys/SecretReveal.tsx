import { useState } from "react";

/**
 * The secret, shown once: a "Copy" button, a warning that it cannot be shown again, and "Done".
 * Nothing stores it; closing the dialog drops it.
 */
export function SecretReveal({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }

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
      <div className="dialog-actions">
        <button type="button" className="button" onClick={copy}>
          Copy
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
