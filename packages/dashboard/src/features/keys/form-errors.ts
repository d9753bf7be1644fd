import { parseRateLimit } from "../../lib/rate-limit";
import type { FormError, ParsedForm } from "../../ui/use-form-errors";
import { type KeyFields, parseCredits } from "./key-fields";

/** An input of the key form an error can sit beside. */
export type KeyFieldName = Exclude<keyof KeyFields, "refill">;

/** What is wrong with the key form, in words, and beside which input (null: the form as a whole). */
export type FieldError = FormError<KeyFieldName>;

/** A key form parser's answer: the input to send, or every error found, in the form's order. */
export type FormParsed<T> = ParsedForm<T, KeyFieldName>;

/** Which of the two rate-limit inputs a failed rate limit points at: the count if it is wrong, else the window. */
export function rateLimitField(fields: Pick<KeyFields, "limit" | "windowSeconds">): KeyFieldName {
  return parseRateLimit(fields.limit, "1").ok ? "windowSeconds" : "limit";
}

/** Which credits input a failed credits rule points at: the balance if it is wrong, else the refill amount. */
export function creditsField(fields: Pick<KeyFields, "creditsRemaining">): KeyFieldName {
  // An empty balance with a refill is a missing balance (alone it would mean "not metered").
  if (fields.creditsRemaining.trim() === "") return "creditsRemaining";
  return parseCredits({ creditsRemaining: fields.creditsRemaining, refill: "none", refillAmount: "" }).ok
    ? "refillAmount"
    : "creditsRemaining";
}
