import { UrlText } from "../../ui/UrlText";
import type { ApiKey } from "./key-status";
import { leakHref } from "./leak-link";

/**
 * Why a leaked key is revoked (docs/leaks.md): "Revoked: found in public at <url>" (a link only for
 * http and https, opened without a referrer or a handle on this page), or "reported by its holder".
 */
export function LeakNotice({ leak }: { leak: NonNullable<ApiKey["leak"]> }) {
  if (leak.url === null) return <span className="leak-notice">Revoked: reported by its holder</span>;
  const href = leakHref(leak.url);
  return (
    <span className="leak-notice">
      Revoked: found in public at{" "}
      {href === null ? (
        <span className="leak-url">
          <UrlText url={leak.url} />
        </span>
      ) : (
        <a className="leak-url" href={href} target="_blank" rel="noopener noreferrer">
          <UrlText url={leak.url} />
        </a>
      )}
    </span>
  );
}
