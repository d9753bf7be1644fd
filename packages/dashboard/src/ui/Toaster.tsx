import { dismissToast, useToasts } from "./toast";

/**
 * The page's toast region: a polite live region that is always in the page (so screen readers announce
 * what is added to it), at the bottom of the viewport; each toast has a "Dismiss" button.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <div className="toaster" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className="toast">
          <span>{toast.message}</span>
          <button
            type="button"
            className="button button-small"
            aria-label={`Dismiss: ${toast.message}`}
            onClick={() => dismissToast(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
