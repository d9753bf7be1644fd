import { type FormEvent, type ReactNode, useEffect, useId, useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";

/** The longest reason the server records (docs/operator.md#keys). */
const MAX_REASON = 500;

/** The props of {@link ReasonDialog}. */
export interface ReasonDialogProps {
  open: boolean;
  onClose: () => void;
  /** Names what is acted on: "Suspend wallet 0xAb…?". */
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  confirmLabel: string;
  tone?: "primary" | "danger";
  busy: boolean;
  /** The request's error in words, or null. */
  error: string | null;
  onConfirm: (reason: string) => void;
}

/**
 * A confirmation that asks why (an operator's action is recorded with its reason, and the wallet reads
 * it): a one-line reason of 1-500 characters, checked here before anything is sent.
 */
export function ReasonDialog({
  open,
  onClose,
  title,
  children,
  confirmLabel,
  tone = "danger",
  busy,
  error,
  onConfirm,
}: ReasonDialogProps) {
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  // Each opening starts blank, however the last one ended (done, cancelled, Escape).
  useEffect(() => {
    if (open) return;
    setReason("");
    setMissing(false);
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (text === "") {
      setMissing(true);
      document.getElementById(inputId)?.focus();
      return;
    }
    setMissing(false);
    onConfirm(text);
  }

  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <form className="form" onSubmit={submit} noValidate>
        {children}
        <div className="field">
          <label htmlFor={inputId}>Reason</label>
          <input
            id={inputId}
            value={reason}
            maxLength={MAX_REASON}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? `${errorId} ${hintId}` : hintId}
            onChange={(event) => setReason(event.target.value.replace(/[\r\n]+/g, " "))}
          />
          {missing ? (
            <p id={errorId} className="field-error">
              Say why: the reason is recorded with the action.
            </p>
          ) : null}
          <p id={hintId} className="hint">
            Recorded in the operator trail and the wallet&apos;s own; the wallet reads it. One line, at most{" "}
            {MAX_REASON} characters.
          </p>
        </div>
        <FormAlert error={error} />
        <DialogActions onCancel={onClose} confirmLabel={confirmLabel} busy={busy} tone={tone} />
      </form>
    </Dialog>
  );
}
