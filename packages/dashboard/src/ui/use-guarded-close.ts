import { useState } from "react";

/** What {@link useGuardedClose} hands a dialog that shows a secret once (ui/SecretOnce takes it whole). */
export type GuardedClose = ReturnType<typeof useGuardedClose>;

/**
 * Closing a dialog that shows a secret once: until the secret was copied, every way out (Escape, a click
 * outside, "Done") asks "Close without copying?" first. `close` runs once the user confirms (or at once
 * after a copy).
 */
export function useGuardedClose(close: () => void) {
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  return {
    asking,
    /** Escape, the backdrop and "Done" call this. */
    request: () => (copied ? finish() : setAsking(true)),
    /** "Go back" in the question. */
    cancel: () => setAsking(false),
    /** "Close without copying" in the question. */
    confirm: () => finish(),
    markCopied: () => setCopied(true),
  };

  function finish() {
    setCopied(false);
    setAsking(false);
    close();
  }
}
