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

/** Focus `element` if it is still on the page; true when it took focus. */
function focusIfThere(element: Element | null | undefined): boolean {
  if (!(element instanceof HTMLElement) || !element.isConnected) return false;
  element.focus();
  return document.activeElement === element;
}

/**
 * Puts focus back after a dialog: on its opener when it is still there, else (the opener went with
 * what the dialog did, e.g. a revoked key's Revoke) on the opener's row's first link, else the view's
 * heading. Checked again over the next frames, since the list re-renders just after the dialog closes.
 */
function returnFocus(previous: Element | null, around: Element | null): void {
  const fallback = () => {
    if (around === null || !around.isConnected) return focusIfThere(document.querySelector("main h1"));
    if (around.tagName === "TR") return focusIfThere(around.querySelector("a[href], button:not([disabled])"));
    const heading = around.querySelector("h1, h2");
    if (heading instanceof HTMLElement && !heading.hasAttribute("tabindex")) heading.tabIndex = -1;
    return focusIfThere(heading);
  };
  const place = () => {
    if (focusIfThere(previous)) return;
    fallback();
  };
  place();
  const lost = () => document.activeElement === null || document.activeElement === document.body;
  // The opener may vanish a moment later, when the refetched list renders without it.
  let frames = 0;
  const check = () => {
    if (lost()) place();
    if (++frames < 10) requestAnimationFrame(check);
  };
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(check);
}

/**
 * A modal `<dialog>`: the browser traps focus (everything else is inert) and Escape closes it. Focus
 * goes back to what had it before opening, so keyboard users land where they were; when that is gone
 * (Revoke removes its own button) to its row's link or the view's heading.
 */
export function Dialog({ open, onClose, title, children, closeOnBackdrop = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement;
    // Where focus goes when the opener is gone (Revoke removes its own button): its table row, or
    // the view it was in.
    const around = previous instanceof HTMLElement ? previous.closest("tr, section, main") : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      returnFocus(previous, around);
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
