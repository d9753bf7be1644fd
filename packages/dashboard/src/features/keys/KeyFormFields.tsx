import { MAX_KEY_NAME_LENGTH, MAX_RATE_LIMIT_WINDOW_SECONDS } from "@keyport/server/schemas";
import { useId } from "react";
import type { KeyFields, RefillChoice } from "./key-fields";

const REFILLS: { value: RefillChoice; label: string }[] = [
  { value: "none", label: "No refill" },
  { value: "daily", label: "Daily (UTC)" },
  { value: "monthly", label: "Monthly (UTC)" },
];

/**
 * The inputs of the create and edit dialogs: name, rate limit, expiry, permissions, credits with their
 * refill, and metadata. The parent owns the values; each change hands back the whole new set.
 */
export function KeyFormFields({
  fields,
  onChange,
}: {
  fields: KeyFields;
  onChange: (fields: KeyFields) => void;
}) {
  const permissionsHint = useId();
  const creditsHint = useId();
  const metaHint = useId();
  const set =
    (name: keyof KeyFields) =>
    (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement }) =>
      onChange({ ...fields, [name]: event.currentTarget.value });

  return (
    <>
      <label className="field">
        <span>Name</span>
        <input
          type="text"
          required
          maxLength={MAX_KEY_NAME_LENGTH}
          value={fields.name}
          onChange={set("name")}
        />
      </label>
      <fieldset className="field-group">
        <legend>Rate limit (optional)</legend>
        <label className="field">
          <span>Requests</span>
          <input type="number" inputMode="numeric" min={1} value={fields.limit} onChange={set("limit")} />
        </label>
        <label className="field">
          <span>Per seconds</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_RATE_LIMIT_WINDOW_SECONDS}
            value={fields.windowSeconds}
            onChange={set("windowSeconds")}
          />
        </label>
      </fieldset>
      <label className="field">
        <span>Expiry (optional)</span>
        <input type="datetime-local" value={fields.expiresAt} onChange={set("expiresAt")} />
      </label>
      <label className="field">
        <span>Permissions (optional)</span>
        <input
          type="text"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-describedby={permissionsHint}
          value={fields.permissions}
          onChange={set("permissions")}
        />
        <small id={permissionsHint} className="hint">
          Separated by commas, e.g. <code>prices:read, keys.*</code>. A trailing * grants everything that
          starts with what precedes it.
        </small>
      </label>
      <fieldset className="field-group" aria-describedby={creditsHint}>
        <legend>Credits (optional)</legend>
        <label className="field">
          <span>Remaining</span>
          <input
            type="number"
            inputMode="numeric"
            min={0}
            value={fields.creditsRemaining}
            onChange={set("creditsRemaining")}
          />
        </label>
        <label className="field">
          <span>Refill</span>
          <select
            value={fields.refill}
            onChange={(event) => {
              const refill = REFILLS.find((option) => option.value === event.currentTarget.value);
              onChange({ ...fields, refill: refill?.value ?? "none" });
            }}
          >
            {REFILLS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        {fields.refill === "none" ? null : (
          <label className="field">
            <span>Refill to</span>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              value={fields.refillAmount}
              onChange={set("refillAmount")}
            />
          </label>
        )}
        <small id={creditsHint} className="hint field-group-hint">
          Each verification spends 1 credit (or its cost); at 0 it is refused. A refill resets the balance at
          the start of each UTC day or month.
        </small>
      </fieldset>
      <label className="field">
        <span>Metadata (optional)</span>
        <textarea
          rows={3}
          spellCheck={false}
          aria-describedby={metaHint}
          placeholder='{"customerId": "cus_123"}'
          value={fields.meta}
          onChange={set("meta")}
        />
        <small id={metaHint} className="hint">
          A JSON object of at most 1 KiB, returned with every verification of this key.
        </small>
      </label>
    </>
  );
}
