import type { RouterInputs } from "@keyport/server";
import { creditsField, type FieldError, type FormParsed } from "./form-errors";
import {
  type KeyFields,
  parseAllowedIps,
  parseCredits,
  parseExpiry,
  parseMeta,
  parseName,
  parsePermissions,
} from "./key-fields";
import { parseLimitRows, sameLimitRows } from "./limit-rows";

/** What `keys.update` takes: an absent field is unchanged, `null` clears it. */
export type UpdateKeyInput = RouterInputs["keys"]["update"];

/**
 * Turns the edit form into `keys.update`'s input, sending only the fields that differ from `initial`
 * (what the key held when the dialog opened): an untouched credit balance is not reset to the number
 * the dialog showed while verifications kept spending it. An emptied field clears (null); emptied
 * permissions are none ([]). Says in words what is wrong with each changed field, or that nothing changed.
 */
export function parseEditKeyForm(
  id: string,
  fields: KeyFields,
  initial: KeyFields,
  now: Date,
): FormParsed<UpdateKeyInput> {
  const input: UpdateKeyInput = { id };
  const errors: FieldError[] = [];

  if (fields.name.trim() !== initial.name.trim()) {
    const name = parseName(fields.name);
    if (!name.ok) errors.push({ field: "name", message: name.message });
    else input.name = name.value;
  }

  // The list is sent whole (a PATCH replaces it; [] removes every limit), and only when it changed.
  if (!sameLimitRows(fields.rateLimits, initial.rateLimits)) {
    const rateLimits = parseLimitRows(fields.rateLimits);
    if (!rateLimits.ok) errors.push(...rateLimits.errors);
    else input.rateLimits = rateLimits.value;
  }

  if (fields.expiresAt !== initial.expiresAt) {
    const expiresAt = parseExpiry(fields.expiresAt, now);
    if (!expiresAt.ok) errors.push({ field: "expiresAt", message: expiresAt.message });
    else input.expiresAt = expiresAt.value;
  }

  const permissions = parsePermissions(fields.permissions);
  const before = parsePermissions(initial.permissions);
  if (!permissions.ok) errors.push({ field: "permissions", message: permissions.message });
  else if (!before.ok || permissions.value.join(",") !== before.value.join(",")) {
    input.permissions = permissions.value;
  }

  if (
    fields.creditsRemaining.trim() !== initial.creditsRemaining ||
    fields.refill !== initial.refill ||
    (fields.refill !== "none" && fields.refillAmount.trim() !== initial.refillAmount)
  ) {
    const credits = parseCredits(fields);
    if (!credits.ok) errors.push({ field: creditsField(fields), message: credits.message });
    else input.credits = credits.value;
  }

  if (fields.meta !== initial.meta) {
    const meta = parseMeta(fields.meta);
    if (!meta.ok) errors.push({ field: "meta", message: meta.message });
    else input.meta = meta.value;
  }

  const allowedIps = parseAllowedIps(fields.allowedIps);
  const allowedBefore = parseAllowedIps(initial.allowedIps);
  if (!allowedIps.ok) errors.push({ field: "allowedIps", message: allowedIps.message });
  else if (!allowedBefore.ok || allowedIps.value?.join(",") !== allowedBefore.value?.join(",")) {
    input.allowedIps = allowedIps.value;
  }

  if (errors.length > 0) return { ok: false, errors };
  if (Object.keys(input).length === 1)
    return { ok: false, errors: [{ field: null, message: "Nothing changed." }] };
  return { ok: true, input };
}
