/** The props of {@link FormAlert}. */
export interface FormAlertProps {
  /** What went wrong with the form as a whole (the request's error), or null. */
  error: string | null;
  /** How many fields carry an error of their own beside them. */
  fieldErrors?: number;
}

/**
 * A form's one alert: the error of the form as a whole, else how many fields need a change (the
 * messages themselves sit beside the fields), else nothing.
 */
export function FormAlert({ error, fieldErrors = 0 }: FormAlertProps) {
  const message =
    error ??
    (fieldErrors === 0
      ? null
      : fieldErrors === 1
        ? "One field needs a change."
        : `${fieldErrors} fields need a change.`);
  if (message === null) return null;
  return (
    <p role="alert" className="status-error">
      {message}
    </p>
  );
}
