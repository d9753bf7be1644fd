import { MAX_RATE_LIMIT_WINDOW_SECONDS } from "@keyport/server/schemas";
import { useId } from "react";
import type { FormErrors } from "../../ui/use-form-errors";
import type { KeyFieldName } from "./form-errors";
import { blankLimitRow, type LimitRow, limitField, MAX_LIMIT_ROWS } from "./limit-rows";

/**
 * The key form's rate limits: one row a named limit (name, requests, window, whether it applies to
 * every request), rows added and removed, at most `MAX_LIMIT_ROWS`; each error beside its input
 * (docs/verifying-keys.md#named-limits).
 */
export function RateLimitRows({
  rows,
  onChange,
  form,
}: {
  rows: LimitRow[];
  onChange: (rows: LimitRow[]) => void;
  form: FormErrors<KeyFieldName>;
}) {
  const hint = useId();
  const full = rows.length >= MAX_LIMIT_ROWS;
  const change = (index: number, patch: Partial<LimitRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <fieldset className="field-group limit-rows" aria-describedby={hint}>
      <legend>Rate limits (optional)</legend>
      {rows.map((row, index) => {
        const label = row.name.trim() === "" ? `limit ${index + 1}` : `limit “${row.name.trim()}”`;
        return (
          <fieldset key={row.id} className="limit-row">
            <legend className="visually-hidden">{`Limit ${index + 1}`}</legend>
            <label className="field limit-name">
              <span id={form.labelId(limitField(index, "name"))}>Limit name</span>
              <input
                type="text"
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                maxLength={32}
                value={row.name}
                onChange={(event) => change(index, { name: event.currentTarget.value })}
                {...form.field(limitField(index, "name"))}
              />
              {form.message(limitField(index, "name"))}
            </label>
            <label className="field">
              <span id={form.labelId(limitField(index, "limit"))}>Requests</span>
              <input
                type="number"
                inputMode="numeric"
                min={1}
                value={row.limit}
                onChange={(event) => change(index, { limit: event.currentTarget.value })}
                {...form.field(limitField(index, "limit"))}
              />
              {form.message(limitField(index, "limit"))}
            </label>
            <label className="field">
              <span id={form.labelId(limitField(index, "windowSeconds"))}>Per seconds</span>
              <input
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_RATE_LIMIT_WINDOW_SECONDS}
                value={row.windowSeconds}
                onChange={(event) => change(index, { windowSeconds: event.currentTarget.value })}
                {...form.field(limitField(index, "windowSeconds"))}
              />
              {form.message(limitField(index, "windowSeconds"))}
            </label>
            <label className="field field-inline limit-auto">
              <input
                type="checkbox"
                checked={row.autoApply}
                onChange={(event) => change(index, { autoApply: event.currentTarget.checked })}
              />
              <span>Applies to every request</span>
            </label>
            <button
              type="button"
              className="button button-small"
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              Remove <span className="visually-hidden">{label}</span>
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="button button-small limit-add"
        disabled={full}
        onClick={() => onChange([...rows, blankLimitRow(rows)])}
      >
        Add a limit
      </button>
      <small id={hint} className="hint field-group-hint">
        {full
          ? `A key holds at most ${MAX_LIMIT_ROWS} limits.`
          : "Names are 1-32 characters of a-z, 0-9, _ . - and unique. A limit that does not apply to every request counts only verifications that name it, with their cost (e.g. tokens)."}
      </small>
    </fieldset>
  );
}
