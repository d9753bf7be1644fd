import { type ReactNode, useEffect, useId, useRef } from "react";

/** Props of `Dialog`. */
export interface DialogProps {
  open: boolean;
  /** Called on Escape and by the caller's own buttons; the parent owns `open`. */
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Also call `onClose` on a click outside the dialog's box (on the backdrop). */
  closeOnBackdrop?: boolean;
}

/**
 * A modal `<dialog>`: the browser traps focus (everything else is inert) and Escape closes it. Focus
 * goes back to what had it before opening, so keyboard users land where they were.
 */
export function Dialog({ open, onClose, title, children, closeOnBackdrop = false }: DialogProps) {
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
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click has its keyboard twin in Escape (onCancel)
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, outside its box.
        if (!closeOnBackdrop || event.target !== event.currentTarget) return;
        const box = event.currentTarget.getBoundingClientRect();
        const inside =
          event.clientX >= box.left &&
          event.clientX <= box.right &&
          event.clientY >= box.top &&
          event.clientY <= box.bottom;
        if (!inside) onClose();
      }}
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
