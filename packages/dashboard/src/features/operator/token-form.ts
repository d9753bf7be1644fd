import type { RouterInputs } from "@keyport/server";
import { keyName } from "@keyport/server/schemas";
import type { OperatorScope } from "./operator-types";

/** What `operator.tokens.create` takes. */
export type CreateTokenInput = RouterInputs["operator"]["tokens"]["create"];

/** The create-token form as typed: the expiry as a `datetime-local` value ("" for none). */
export interface TokenFields {
  name: string;
  scopes: OperatorScope[];
  expiresAt: string;
}

/** The form as the server's input, or each wrong field's message. */
export type TokenFormParsed =
  | { ok: true; input: CreateTokenInput }
  | { ok: false; errors: Partial<Record<keyof TokenFields, string>> };

/**
 * Checks the create-token form before any request: a name (as a key's), one scope at least, an
 * expiry in the future when given (read in the browser's time zone).
 */
export function parseTokenForm(fields: TokenFields, now: Date): TokenFormParsed {
  const errors: Partial<Record<keyof TokenFields, string>> = {};
  // A token's name follows a key's rules (the server's keyName).
  const name = keyName.safeParse(fields.name.trim());
  if (!name.success) {
    errors.name =
      fields.name.trim() === ""
        ? "Give the token a name."
        : `The name ${name.error.issues[0]?.message ?? "is not valid"}.`;
  }
  if (fields.scopes.length === 0) errors.scopes = "Choose one scope at least.";
  let expiresAt: Date | undefined;
  if (fields.expiresAt !== "") {
    const when = new Date(fields.expiresAt);
    if (Number.isNaN(when.getTime())) errors.expiresAt = "Not a date and time.";
    else if (when <= now) errors.expiresAt = "Choose a time in the future.";
    else expiresAt = when;
  }
  if (!name.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: { name: name.data, scopes: fields.scopes, ...(expiresAt === undefined ? {} : { expiresAt }) },
  };
}

/** `date` as a `datetime-local` input's value, in the browser's time zone: `2026-11-29T10:15`. */
export function localDateTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
