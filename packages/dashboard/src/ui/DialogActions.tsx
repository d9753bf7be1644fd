/** The props of {@link DialogActions}. */
export interface DialogActionsProps {
  /** Closes the dialog without acting. */
  onCancel: () => void;
  /** The confirming button's name ("Create", "Save", "Revoke"). */
  confirmLabel: string;
  /** Disables the confirming button while its request runs. */
  busy: boolean;
  /** A destructive action is red. */
  tone?: "primary" | "danger";
  /** Without it the confirming button submits the surrounding form. */
  onConfirm?: () => void;
}

/** A dialog's Cancel and confirming buttons, in that order, as every dialog here lays them out. */
export function DialogActions({
  onCancel,
  confirmLabel,
  busy,
  tone = "primary",
  onConfirm,
}: DialogActionsProps) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button
        type={onConfirm ? "button" : "submit"}
        className={`button button-${tone}`}
        disabled={busy}
        onClick={onConfirm}
      >
        {confirmLabel}
      </button>
    </div>
  );
}
