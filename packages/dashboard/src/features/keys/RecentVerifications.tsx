import { useId } from "react";

/**
 * The key's last verifications (time, outcome, permissions asked, cost, client address). The server
 * keeps no per-verification rows yet (docs/dashboard.md, "Key page"): this section says so, and is
 * where a `keys.recentVerifications`-style query will render its table once the server offers one.
 */
export function RecentVerifications({ keyId }: { keyId: string }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="key-section" data-key-id={keyId}>
      <h2 id={titleId}>Recent verifications</h2>
      <div className="status status-empty">
        <p>
          Coming soon: the last 50 verifications of this key (time, outcome, permissions asked, cost and
          client address). Keyport does not keep them yet; until then the usage above counts them by outcome.
        </p>
      </div>
    </section>
  );
}
