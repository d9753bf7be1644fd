import { useId } from "react";
import { formatCount, formatDate, formatDateTime } from "../../lib/format";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";
import { type ApiKey, keyStatusWords } from "./key-status";
import { RevokeKeyDialog } from "./RevokeKeyDialog";
import { RollKeyDialog } from "./RollKeyDialog";

function rateLimitWords(key: ApiKey): string {
  if (key.rateLimit === null) return "none";
  return `${formatCount(key.rateLimit.limit)} / ${formatCount(key.rateLimit.windowSeconds)} s`;
}

/** The keys as a table: name, key start, status in words, dates, rate limit, and Roll/Revoke. */
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
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key start</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expiry</th>
            <th scope="col">Rate limit</th>
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
      <th scope="row" id={nameId}>
        {apiKey.name}
      </th>
      <td>
        <code>{apiKey.start}…</code>
      </td>
      <td>
        <span className={`badge badge-${apiKey.status}`}>{status}</span>
      </td>
      <td>
        <DateCell value={apiKey.createdAt} empty="never" />
      </td>
      <td>
        <DateCell value={apiKey.lastUsedAt} empty="never" />
      </td>
      <td>
        <DateCell value={apiKey.expiresAt} empty="never" />
      </td>
      <td>{rateLimitWords(apiKey)}</td>
      <td>
        <div className="row-actions">
          {apiKey.status === "active" && apiKey.revokedAt === null ? (
            <RollKeyDialog apiKey={apiKey} describedBy={nameId} />
          ) : null}
          {apiKey.status === "active" ? <RevokeKeyDialog apiKey={apiKey} describedBy={nameId} /> : null}
        </div>
      </td>
    </tr>
  );
}
