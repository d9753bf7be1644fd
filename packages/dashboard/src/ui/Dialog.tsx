import { type ReactNode, useEffect, useId, useRef } from "react";

/** Props of `Dialog`. */
export interface DialogProps {
  open: boolean;
  /** Called on Escape and by the caller's own buttons; the parent owns `open`. */
  onClose: () => void;
  title: string;
  children: ReactNode;
}

/**
 * A modal `<dialog>`: the browser traps focus (everything else is inert) and Escape closes it. Focus
 * goes back to what had it before opening, so keyboard users land where they were.
 */
export function Dialog({ open, onClose, title, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Keep `open` in React's hands: the parent decides, then the effect closes the element.
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
