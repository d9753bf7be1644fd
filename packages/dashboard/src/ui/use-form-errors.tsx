import { type ReactNode, useEffect, useId, useState } from "react";

/** What is wrong, in words, and beside which input (null: the form as a whole, e.g. "Nothing changed."). */
export interface FormError<Field extends string> {
  field: Field | null;
  message: string;
}

/** A form's checks: the input to send, or every error found, in the form's order. */
export type ParsedForm<Input, Field extends string> =
  | { ok: true; input: Input }
  | { ok: false; errors: FormError<Field>[] };

/** What {@link useFormErrors} gives a dialog, which hands it to its fields component as `form`. */
export type FormErrors<Field extends string> = ReturnType<typeof useFormErrors<Field>>;

/** The props of a form's fields component: the values, each change as the whole new set, and the errors. */
export interface FormFieldsProps<Fields, Field extends string> {
  fields: Fields;
  onChange: (fields: Fields) => void;
  /** The dialog's errors: each shown beside its input, focus on the first after a failed submit. */
  form: FormErrors<Field>;
}

/**
 * A form's errors beside their fields. The dialog owns them: `check` takes a submit's own checks (their
 * errors shown, or none left and the input to send), `show` puts other errors in place (a server's 400
 * mapped to fields, "Nothing changed."); either moves focus to the first wrong input, once per submit,
 * never per keystroke. `reset` on close. The fields component spreads `field(name, hint)` on each input
 * (its id, its label, aria-invalid, and aria-describedby naming the error, then the hint) and renders
 * `message(name)` beside it; the input is named by its label alone (`labelId(name)`), the error and the
 * hint describe it.
 *
 * @example
 * const form = useFormErrors<"url">();
 * // submit: const input = form.check(parseForm(fields)); if (input !== null) mutation.mutate(input);
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

  function show(next: readonly FormError<Field>[]): void {
    setErrors(next);
    setAttempt((count) => count + 1);
  }

  const firstInvalid = errors.find((error) => error.field !== null)?.field ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves once per failed submit, not per keystroke
  useEffect(() => {
    if (attempt === 0 || firstInvalid === null) return;
    document.getElementById(inputId(firstInvalid))?.focus();
  }, [attempt]);

  return {
    /** The message about the form as a whole, if any. */
    formError: errors.find((error) => error.field === null)?.message ?? null,
    /** How many errors sit beside a field (FormAlert's count). */
    fieldErrorCount: errors.filter((error) => error.field !== null).length,
    /** A failed submit: shows `next` and moves focus to the first input among them. */
    show,
    /** A submit's own checks: shows their errors and answers null, or clears them and answers the input. */
    check: <Input,>(parsed: ParsedForm<Input, Field>): Input | null => {
      if (!parsed.ok) {
        show(parsed.errors);
        return null;
      }
      setErrors([]);
      return parsed.input;
    },
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
