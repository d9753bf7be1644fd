import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "@keyport/server/schemas";
import { useId } from "react";
import type { FormFieldsProps } from "../../ui/use-form-errors";
import type { WebhookFieldName, WebhookFields } from "./webhook-form";
import { describeEventType, EVENT_GROUPS } from "./webhook-words";

/**
 * The inputs of the "Add endpoint" and "Edit" dialogs: the URL, the events (checkboxes grouped Keys,
 * Credits, Limits, with "All events") and a description. Errors sit beside their inputs (the dialog's
 * `form`, ui/use-form-errors), and each failed submit moves focus to the first wrong one.
 */
export function WebhookFormFields({
  fields,
  onChange,
  form,
}: FormFieldsProps<WebhookFields, WebhookFieldName>) {
  // Each input's name is its label's text alone: the error and the hint describe it, they do not name it.
  const urlHint = useId();

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
        <span id={form.labelId("url")}>Endpoint URL</span>
        <input
          type="url"
          inputMode="url"
          maxLength={MAX_WEBHOOK_URL_LENGTH}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/webhooks/keyport"
          value={fields.url}
          onChange={(event) => onChange({ ...fields, url: event.currentTarget.value })}
          {...form.field("url", urlHint)}
        />
        {form.message("url")}
        <small id={urlHint} className="hint">
          Keyport POSTs each event here as JSON, signed with the endpoint&apos;s secret.
        </small>
      </label>
      <fieldset className="field-group webhook-events" aria-describedby={form.describedBy("events")}>
        <legend>Events</legend>
        <label className="check">
          <input
            id={form.inputId("events")}
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
        {form.message("events")}
      </fieldset>
      <label className="field">
        <span id={form.labelId("description")}>Description (optional)</span>
        <input
          type="text"
          maxLength={MAX_WEBHOOK_DESCRIPTION_LENGTH}
          value={fields.description}
          onChange={(event) => onChange({ ...fields, description: event.currentTarget.value })}
          {...form.field("description")}
        />
        {form.message("description")}
      </label>
    </>
  );
}
