import { formatDateTime } from "../../lib/format";
import { CopyButton } from "../../ui/CopyButton";
import { UrlText } from "../../ui/UrlText";
import { describeChanges, describeEvent, describeKey, type KeyEvent } from "./event-words";

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** The props of {@link EventItem}. */
export interface EventItemProps {
  event: KeyEvent;
  /** Key names by id, for changes that name keys. */
  keyNames?: ReadonlyMap<string, string>;
  /** Whether the event names its key (not on a key's own page). */
  showKey?: boolean;
}

/** One audit event in the activity view's words: what happened, to which key, when, what changed. */
export function EventItem({ event, keyNames = NO_NAMES, showKey = true }: EventItemProps) {
  const key = showKey ? describeKey(event.keyId, keyNames) : null;
  const changes = describeChanges(event, keyNames);
  return (
    <li className="event">
      <div className="event-head">
        <strong>{describeEvent(event)}</strong>
        {key === null ? null : <span className="event-key">{key}</span>}
        <time className="muted" dateTime={event.at.toISOString()}>
          {formatDateTime(event.at)}
        </time>
      </div>
      {changes.length === 0 ? null : (
        <dl className="event-changes">
          {changes.map((change) => (
            <div key={change.label}>
              <dt>{change.label}</dt>
              <dd>
                {/^https?:\/\//.test(change.value) ? <UrlText url={change.value} /> : change.value}
                {change.copyable ? (
                  <>
                    {" "}
                    <CopyButton text={change.value} label={`Copy ${change.label.toLowerCase()} hash`} />
                  </>
                ) : null}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}
