import { formatCount, formatDateTime } from "../../lib/format";
import { formatRateLimits } from "../../lib/rate-limit";
import { CopyButton } from "../../ui/CopyButton";
import { RelativeTime } from "../../ui/RelativeTime";
import { type ApiKey, keyStatusWords } from "./key-status";
import { LeakNotice } from "./LeakNotice";

function ExactTime({ value, empty }: { value: Date | null; empty: string }) {
  if (value === null) return <span className="muted">{empty}</span>;
  return <time dateTime={value.toISOString()}>{formatDateTime(value)}</time>;
}

function refillWords(refill: NonNullable<ApiKey["credits"]>["refill"]): string {
  if (refill === null) return "no refill";
  return `to ${formatCount(refill.amount)} at the start of each UTC ${refill.interval === "daily" ? "day" : "month"}`;
}

/** What one key holds: id (with "Copy ID"), start, status, dates, rate limit, permissions, credits, allowed IPs, meta. */
export function KeyDetails({ apiKey, now }: { apiKey: ApiKey; now: Date }) {
  return (
    <dl className="details">
      <div>
        <dt>ID</dt>
        <dd className="details-id">
          <code>{apiKey.id}</code> <CopyButton text={apiKey.id} label="Copy ID" />
        </dd>
      </div>
      <div>
        <dt>Start</dt>
        <dd>
          <code>{apiKey.start}…</code>
        </dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>{keyStatusWords(apiKey, now)}</dd>
      </div>
      {apiKey.leak === null ? null : (
        <div>
          <dt>Leak</dt>
          <dd>
            <LeakNotice leak={apiKey.leak} />
          </dd>
        </div>
      )}
      <div>
        <dt>Created</dt>
        <dd>
          <RelativeTime value={apiKey.createdAt} now={now} empty="never" />
        </dd>
      </div>
      <div>
        <dt>Last used</dt>
        <dd>
          <RelativeTime value={apiKey.lastUsedAt} now={now} empty="never" />
          {/* A leaked key's page tells whether anyone got in: refused attempts do not count here. */}
          <span className="cell-note">the last valid verification; refused attempts are listed below</span>
        </dd>
      </div>
      <div>
        <dt>Expiry</dt>
        <dd>
          <ExactTime value={apiKey.expiresAt} empty="never" />
        </dd>
      </div>
      {apiKey.revokedAt === null ? null : (
        <div>
          <dt>{apiKey.revokedAt > now ? "Revokes at" : "Revoked at"}</dt>
          <dd>
            <ExactTime value={apiKey.revokedAt} empty="" />
          </dd>
        </div>
      )}
      <div>
        <dt>Rate limit</dt>
        <dd>{formatRateLimits(apiKey.rateLimits)}</dd>
      </div>
      <div>
        <dt>Permissions</dt>
        <dd>
          {apiKey.permissions.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            apiKey.permissions.join(", ")
          )}
        </dd>
      </div>
      <div>
        <dt>Credits</dt>
        <dd>
          {apiKey.credits === null ? (
            <span className="muted">unlimited (not metered)</span>
          ) : (
            `${formatCount(apiKey.credits.remaining)} credits (${formatCount(apiKey.credits.purchased)} purchased), ${refillWords(apiKey.credits.refill)}`
          )}
        </dd>
      </div>
      <div>
        <dt>Allowed IP addresses</dt>
        <dd>
          {apiKey.allowedIps === null ? (
            <span className="muted">Any address</span>
          ) : (
            <ul className="plain-list">
              {apiKey.allowedIps.map((block) => (
                <li key={block}>
                  <code>{block}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
      <div className="details-wide">
        <dt>Metadata</dt>
        <dd>
          {apiKey.meta === null ? (
            <span className="muted">none</span>
          ) : (
            <pre className="details-json">{JSON.stringify(apiKey.meta, null, 2)}</pre>
          )}
        </dd>
      </div>
    </dl>
  );
}
