import { useId } from "react";
import { formatCount, formatDate, formatDateTime } from "../../lib/format";
import { formatCredits, formatPermissions } from "../../lib/policy-words";
import { formatRateLimits } from "../../lib/rate-limit";
import { Link } from "../../lib/router";
import { RelativeTime } from "../../ui/RelativeTime";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";
import { TopUpDialog } from "../top-up/TopUpDialog";
import { EditKeyDialog } from "./EditKeyDialog";
import { type ApiKey, keyStatusWords } from "./key-status";
import { LeakNotice } from "./LeakNotice";
import { RevokeKeyDialog } from "./RevokeKeyDialog";
import { RollKeyDialog } from "./RollKeyDialog";

// A narrow cell: the balance, and the refill on a second, smaller line; the full words are in the title.
function CreditsCell({ credits }: { credits: ApiKey["credits"] }) {
  if (credits === null) return <span className="muted">unlimited</span>;
  const refill = credits.refill;
  return (
    <span title={formatCredits(credits)}>
      {formatCount(credits.remaining)} left{" "}
      {refill === null ? null : (
        <span className="cell-note">
          refill {formatCount(refill.amount)}/{refill.interval === "daily" ? "day" : "month"}
        </span>
      )}
    </span>
  );
}

function PermissionsCell({ permissions }: { permissions: string[] }) {
  if (permissions.length === 0) return <span className="muted">none</span>;
  return <span title={permissions.join(", ")}>{formatPermissions(permissions)}</span>;
}

/**
 * The keys as a table: name, key start, status in words, dates, rate limit, permissions, credits, and
 * Top up (metered keys)/Edit/Roll/Revoke.
 */
export function KeysTable({
  keys,
  now: fixedNow,
}: {
  keys: ApiKey[] /** For tests: a fixed clock. */;
  now?: Date;
}) {
  const ticking = useNow();
  const now = fixedNow ?? ticking;
  return (
    <TableScroll label="API keys">
      {/* On a phone each row is a card (styles.css: .card-table), so nothing scrolls sideways. */}
      <table className="table card-table keys-table">
        <thead>
          <tr>
            <th scope="col">Name, key start</th>
            <th scope="col">Status</th>
            <th scope="col">Created, last used</th>
            <th scope="col">Expiry</th>
            <th scope="col">Rate limit</th>
            <th scope="col">Permissions</th>
            <th scope="col">Credits</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} now={now} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

// The date keeps the table narrow; the exact time is in the title and the machine-readable attribute.
function DateCell({ value, empty }: { value: Date | null; empty: string }) {
  if (value === null) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={value.toISOString()} title={formatDateTime(value)}>
      {formatDate(value)}
    </time>
  );
}

function KeyRow({ apiKey, now }: { apiKey: ApiKey; now: Date }) {
  const nameId = useId();
  const status = keyStatusWords(apiKey, now);
  return (
    <tr>
      <th scope="row">
        <Link id={nameId} to={`/keys/${apiKey.id}`}>
          {apiKey.name}
        </Link>
        {/* The key's start under its name: the table keeps its actions in view at 1280 px. */}
        <code className="cell-note">{apiKey.start}…</code>
      </th>
      <td data-label="Status">
        <span className={`badge badge-${apiKey.status}`}>{status}</span>
        {apiKey.leak === null ? null : (
          <span className="cell-note">
            <LeakNotice leak={apiKey.leak} />
          </span>
        )}
      </td>
      <td data-label="Created">
        <DateCell value={apiKey.createdAt} empty="never" />
        {/* Two dates in one column: the table keeps its actions in view at 1280 px. */}
        <span className="cell-note">
          used <RelativeTime value={apiKey.lastUsedAt} now={now} empty="never" />
        </span>
      </td>
      <td data-label="Expiry">
        <DateCell value={apiKey.expiresAt} empty="never" />
      </td>
      <td data-label="Rate limit">{formatRateLimits(apiKey.rateLimits)}</td>
      <td data-label="Permissions">
        <PermissionsCell permissions={apiKey.permissions} />
      </td>
      <td data-label="Credits">
        <CreditsCell credits={apiKey.credits} />
      </td>
      <td className="actions-cell">
        <div className="row-actions">
          {apiKey.status === "active" && apiKey.revokedAt === null && apiKey.credits !== null ? (
            <TopUpDialog apiKey={apiKey} describedBy={nameId} />
          ) : null}
          {apiKey.status !== "revoked" && apiKey.revokedAt === null ? (
            <EditKeyDialog apiKey={apiKey} describedBy={nameId} />
          ) : null}
          {apiKey.status === "active" && apiKey.revokedAt === null ? (
            <RollKeyDialog apiKey={apiKey} describedBy={nameId} />
          ) : null}
          {apiKey.status === "active" ? <RevokeKeyDialog apiKey={apiKey} describedBy={nameId} /> : null}
        </div>
      </td>
    </tr>
  );
}
