import { type ReactNode, useEffect, useId, useState } from "react";

/** What is wrong, in words, and beside which input (null: the form as a whole, e.g. "Nothing changed."). */
export interface FormError<Field extends string> {
  field: Field | null;
  message: string;
}

/** What {@link useFormErrors} gives a dialog, which hands it to its fields component as `form`. */
export type FormErrors<Field extends string> = ReturnType<typeof useFormErrors<Field>>;

/**
 * A form's errors beside their fields. The dialog owns them: `show` puts a failed submit's errors (the
 * form's own checks, or a server's 400 mapped to fields) in place and moves focus to the first wrong
 * input, once per submit, never per keystroke; `clear` before sending, `reset` on close. The fields
 * component spreads `field(name, hint)` on each input (its id, its label, aria-invalid, and
 * aria-describedby naming the error, then the hint) and renders `message(name)` beside it; the input is
 * named by its label alone (`labelId(name)`), the error and the hint describe it.
 *
 * @example
 * const form = useFormErrors<"url">();
 * // submit: if (!parsed.ok) return form.show(parsed.errors); form.clear(); mutate(parsed.input);
 * <span id={form.labelId("url")}>URL</span>
 * <input {...form.field("url", hintId)} />
 * {form.message("url")}
 */
export function useFormErrors<Field extends string>() {
  const base = useId();
  const [errors, setErrors] = useState<readonly FormError<Field>[]>([]);
  // Counts shown failures: each one moves focus to the first invalid input.
  const [attempt, setAttempt] = useState(0);

  const inputId = (name: Field) => `${base}-${name}`;
  const labelId = (name: Field) => `${base}-${name}-label`;
  const errorId = (name: Field) => `${base}-${name}-error`;
  const errorOf = (name: Field) => errors.find((error) => error.field === name)?.message;
  const describedBy = (name: Field, hint?: string) =>
    [errorOf(name) === undefined ? null : errorId(name), hint ?? null]
      .filter((id) => id !== null)
      .join(" ") || undefined;

  const firstInvalid = errors.find((error) => error.field !== null)?.field ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves once per failed submit, not per keystroke
  useEffect(() => {
    if (attempt === 0 || firstInvalid === null) return;
    document.getElementById(inputId(firstInvalid))?.focus();
  }, [attempt]);

  return {
    errors,
    /** The message about the form as a whole, if any. */
    formError: errors.find((error) => error.field === null)?.message ?? null,
    /** How many errors sit beside a field (FormAlert's count). */
    fieldErrorCount: errors.filter((error) => error.field !== null).length,
    /** A failed submit: shows `next` and moves focus to the first input among them. */
    show: (next: readonly FormError<Field>[]) => {
      setErrors(next);
      setAttempt((count) => count + 1);
    },
    /** A submit that passed the form's checks: no errors while it is sent. */
    clear: () => setErrors([]),
    /** The dialog closed: nothing left for its next opening. */
    reset: () => {
      setErrors([]);
      setAttempt(0);
    },
    inputId,
    labelId,
    describedBy,
    /** The props of the input for `name`: id, the label that names it, aria-invalid, aria-describedby. */
    field: (name: Field, hint?: string) => ({
      id: inputId(name),
      "aria-labelledby": labelId(name),
      "aria-invalid": errorOf(name) !== undefined || undefined,
      "aria-describedby": describedBy(name, hint),
    }),
    /** The error beside the input for `name`, or nothing. */
    message: (name: Field): ReactNode => {
      const text = errorOf(name);
      return text === undefined ? null : (
        <small id={errorId(name)} className="field-error">
          {text}
        </small>
      );
    },
  };
}
