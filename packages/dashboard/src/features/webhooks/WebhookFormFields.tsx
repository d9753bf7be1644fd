import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "@keyport/server/schemas";
import { useEffect, useId } from "react";
import type { WebhookFieldError, WebhookFieldName, WebhookFields } from "./webhook-form";
import { describeEventType, EVENT_GROUPS } from "./webhook-words";

/**
 * The inputs of the "Add endpoint" and "Edit" dialogs: the URL, the events (checkboxes grouped Keys,
 * Credits, Limits, with "All events") and a description. Errors sit beside their inputs (aria-invalid,
 * aria-describedby), and each failed submit (`attempt`) moves focus to the first wrong one.
 */
export function WebhookFormFields({
  fields,
  onChange,
  errors,
  attempt,
}: {
  fields: WebhookFields;
  onChange: (fields: WebhookFields) => void;
  errors: readonly WebhookFieldError[];
  attempt: number;
}) {
  const base = useId();
  // Each input's name is its label's text alone: the error and the hint describe it, they do not name it.
  const urlHint = useId();
  const errorId = (field: WebhookFieldName) => `${base}-${field}-error`;
  const errorOf = (field: WebhookFieldName) => errors.find((error) => error.field === field)?.message;
  const invalid = (field: WebhookFieldName) => errorOf(field) !== undefined;
  const describedBy = (field: WebhookFieldName, hint?: string) =>
    [invalid(field) ? errorId(field) : null, hint ?? null].filter((id) => id !== null).join(" ") || undefined;
  const message = (field: WebhookFieldName) => {
    const text = errorOf(field);
    return text === undefined ? null : (
      <small id={errorId(field)} className="field-error">
        {text}
      </small>
    );
  };

  const firstInvalid = errors.find((error) => error.field !== null)?.field ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves once per failed submit, not per keystroke
  useEffect(() => {
    if (attempt === 0 || firstInvalid === null) return;
    document.getElementById(`${base}-${firstInvalid}`)?.focus();
  }, [attempt]);

  const all = WEBHOOK_EVENT_TYPES.every((event) => fields.events.includes(event));
  const toggle = (event: WebhookEventType, on: boolean) =>
    onChange({
      ...fields,
      // Kept in the server's order, so the list reads the same however it was ticked.
      events: WEBHOOK_EVENT_TYPES.filter((type) => (type === event ? on : fields.events.includes(type))),
    });

  return (
    <>
      <label className="field">
        <span id={`${base}-url-label`}>Endpoint URL</span>
        <input
          id={`${base}-url`}
          aria-labelledby={`${base}-url-label`}
          type="url"
          inputMode="url"
          maxLength={MAX_WEBHOOK_URL_LENGTH}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/webhooks/keyport"
          value={fields.url}
          onChange={(event) => onChange({ ...fields, url: event.currentTarget.value })}
          aria-invalid={invalid("url") || undefined}
          aria-describedby={describedBy("url", urlHint)}
        />
        {message("url")}
        <small id={urlHint} className="hint">
          Keyport POSTs each event here as JSON, signed with the endpoint&apos;s secret.
        </small>
      </label>
      <fieldset className="field-group webhook-events" aria-describedby={describedBy("events")}>
        <legend>Events</legend>
        <label className="check">
          <input
            id={`${base}-events`}
            type="checkbox"
            checked={all}
            onChange={(event) =>
              onChange({ ...fields, events: event.currentTarget.checked ? [...WEBHOOK_EVENT_TYPES] : [] })
            }
          />
          <span>All events</span>
        </label>
        {EVENT_GROUPS.map((group) => (
          <fieldset key={group.label} className="event-group">
            <legend>{group.label}</legend>
            {group.events.map((type) => (
              <label key={type} className="check">
                <input
                  type="checkbox"
                  checked={fields.events.includes(type)}
                  onChange={(event) => toggle(type, event.currentTarget.checked)}
                />
                <span>
                  {describeEventType(type)} <code className="muted">{type}</code>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
        {message("events")}
      </fieldset>
      <label className="field">
        <span id={`${base}-description-label`}>Description (optional)</span>
        <input
          id={`${base}-description`}
          aria-labelledby={`${base}-description-label`}
          type="text"
          maxLength={MAX_WEBHOOK_DESCRIPTION_LENGTH}
          value={fields.description}
          onChange={(event) => onChange({ ...fields, description: event.currentTarget.value })}
          aria-invalid={invalid("description") || undefined}
          aria-describedby={describedBy("description")}
        />
        {message("description")}
      </label>
    </>
  );
}
