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
}: {
  text: string;
  label: string;
  onCopied?: () => void;
}) {
  const [state, setState] = useState<CopyState>("no");
  return (
    <span className="copy">
      <button
        type="button"
        className="button button-small"
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
