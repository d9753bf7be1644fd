import type { FormError, ParsedForm } from "../../ui/use-form-errors";
import { type KeyFields, parseCredits } from "./key-fields";
import type { LimitFieldName } from "./limit-rows";

/** An input of the key form an error can sit beside. */
export type KeyFieldName = Exclude<keyof KeyFields, "refill" | "rateLimits"> | LimitFieldName;

/** What is wrong with the key form, in words, and beside which input (null: the form as a whole). */
export type FieldError = FormError<KeyFieldName>;

/** A key form parser's answer: the input to send, or every error found, in the form's order. */
export type FormParsed<T> = ParsedForm<T, KeyFieldName>;

/** Which credits input a failed credits rule points at: the balance if it is wrong, else the refill amount. */
export function creditsField(fields: Pick<KeyFields, "creditsRemaining">): KeyFieldName {
  // An empty balance with a refill is a missing balance (alone it would mean "not metered").
  if (fields.creditsRemaining.trim() === "") return "creditsRemaining";
  return parseCredits({ creditsRemaining: fields.creditsRemaining, refill: "none", refillAmount: "" }).ok
    ? "refillAmount"
    : "creditsRemaining";
}
