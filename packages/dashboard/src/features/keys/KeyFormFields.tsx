import { MAX_KEY_NAME_LENGTH } from "@keyport/server/schemas";
import { useId } from "react";
import type { FormFieldsProps } from "../../ui/use-form-errors";
import type { KeyFieldName } from "./form-errors";
import type { KeyFields, RefillChoice } from "./key-fields";
import { RateLimitRows } from "./RateLimitRows";

const REFILLS: { value: RefillChoice; label: string }[] = [
  { value: "none", label: "No refill" },
  { value: "daily", label: "Daily (UTC)" },
  { value: "monthly", label: "Monthly (UTC)" },
];

/**
 * The inputs of the create and edit dialogs: name, rate limits, expiry, permissions, credits with their
 * refill, and metadata. The parent owns the values; each change hands back the whole new set.
 */
export function KeyFormFields({ fields, onChange, form }: FormFieldsProps<KeyFields, KeyFieldName>) {
  const permissionsHint = useId();
  const creditsHint = useId();
  const metaHint = useId();
  const allowedIpsHint = useId();
  const set =
    (name: Exclude<keyof KeyFields, "rateLimits" | "refill">) =>
    (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement }) =>
      onChange({ ...fields, [name]: event.currentTarget.value });

  return (
    <>
      <label className="field">
        <span id={form.labelId("name")}>Name</span>
        <input
          type="text"
          required
          maxLength={MAX_KEY_NAME_LENGTH}
          value={fields.name}
          onChange={set("name")}
          {...form.field("name")}
        />
        {form.message("name")}
      </label>
      <RateLimitRows
        rows={fields.rateLimits}
        onChange={(rateLimits) => onChange({ ...fields, rateLimits })}
        form={form}
      />
      <label className="field">
        <span id={form.labelId("expiresAt")}>Expiry (optional)</span>
        <input
          type="datetime-local"
          value={fields.expiresAt}
          onChange={set("expiresAt")}
          {...form.field("expiresAt")}
        />
        {form.message("expiresAt")}
      </label>
      <label className="field">
        <span id={form.labelId("permissions")}>Permissions (optional)</span>
        <input
          type="text"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          value={fields.permissions}
          onChange={set("permissions")}
          {...form.field("permissions", permissionsHint)}
        />
        {form.message("permissions")}
        <small id={permissionsHint} className="hint">
          Separated by commas, e.g. <code>prices:read, keys.*</code>. A trailing * grants everything that
          starts with what precedes it.
        </small>
      </label>
      <fieldset className="field-group" aria-describedby={creditsHint}>
        <legend>Credits (optional)</legend>
        <label className="field">
          <span id={form.labelId("creditsRemaining")}>Remaining</span>
          <input
            type="number"
            inputMode="numeric"
            min={0}
            value={fields.creditsRemaining}
            onChange={set("creditsRemaining")}
            {...form.field("creditsRemaining")}
          />
          {form.message("creditsRemaining")}
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
            <span id={form.labelId("refillAmount")}>Refill to</span>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              value={fields.refillAmount}
              onChange={set("refillAmount")}
              {...form.field("refillAmount")}
            />
            {form.message("refillAmount")}
          </label>
        )}
        <small id={creditsHint} className="hint field-group-hint">
          Each verification spends 1 credit (or its cost); at 0 it is refused. A refill resets the balance at
          the start of each UTC day or month.
        </small>
      </fieldset>
      <label className="field">
        <span id={form.labelId("meta")}>Metadata (optional)</span>
        <textarea
          rows={3}
          spellCheck={false}
          placeholder='{"customerId": "cus_123"}'
          value={fields.meta}
          onChange={set("meta")}
          {...form.field("meta", metaHint)}
        />
        {form.message("meta")}
        <small id={metaHint} className="hint">
          A JSON object of at most 1 KiB, returned with every verification of this key.
        </small>
      </label>
      <label className="field">
        <span id={form.labelId("allowedIps")}>Allowed IP addresses (optional)</span>
        <textarea
          rows={3}
          spellCheck={false}
          autoCapitalize="none"
          autoCorrect="off"
          placeholder={"203.0.113.7\n10.0.0.0/8"}
          value={fields.allowedIps}
          onChange={set("allowedIps")}
          {...form.field("allowedIps", allowedIpsHint)}
        />
        {form.message("allowedIps")}
        <small id={allowedIpsHint} className="hint">
          IPv4 or IPv6 addresses or CIDR blocks, one per line or separated by commas. Verifications from any
          other address are refused; empty allows any address.
        </small>
      </label>
    </>
  );
}
