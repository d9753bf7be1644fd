import { useState } from "react";
import { type CopyState, copyText } from "./copy-text";

/**
 * A "Copy" button for `text`, with a polite status beside it ("Copied", or how to copy by hand).
 * `label` names what it copies for screen readers and tests ("Copy ID", "Copy code").
 */
export function CopyButton({
  text,
  label,
  onCopied,
  autoFocus = false,
}: {
  text: string;
  label: string;
  onCopied?: () => void;
  /** Takes focus when it appears (a secret just revealed, where copying is the next step). */
  autoFocus?: boolean;
}) {
  const [state, setState] = useState<CopyState>("no");
  return (
    <span className="copy">
      <button
        type="button"
        className="button button-small"
        // biome-ignore lint/a11y/noAutofocus: it appears in a dialog that already holds focus, as its next step
        autoFocus={autoFocus}
        onClick={async () => {
          const result = await copyText(text);
          setState(result);
          if (result === "yes") onCopied?.();
        }}
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === "yes" ? "Copied" : state === "failed" ? "Copy failed: select it and copy by hand" : ""}
      </span>
    </span>
  );
}
