import { lazy, Suspense, useState } from "react";
import { useMeta } from "../../lib/meta";

/** The key a top-up is for: its id and name. */
export interface TopUpTarget {
  id: string;
  name: string;
}

// The dialog and the signing code load on the first "Top up" (the first-load budget, docs/dashboard.md).
const TopUpPanel = lazy(() => import("./TopUpPanel").then((module) => ({ default: module.TopUpPanel })));

/**
 * "Top up" for a metered, active key: the button, and the dialog while it is open. Nothing while the
 * server says its payments are off (`/api/meta`), so no one starts a payment that cannot be taken.
 */
export function TopUpDialog({ apiKey, describedBy }: { apiKey: TopUpTarget; describedBy: string }) {
  const [open, setOpen] = useState(false);
  const { payments } = useMeta();
  if (payments === null) return null;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        Top up
      </button>
      {open ? (
        <Suspense fallback={null}>
          <TopUpPanel apiKey={apiKey} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
