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
import { parseLimitRows } from "./limit-rows";

/** What `keys.create` takes. */
export type CreateKeyInput = RouterInputs["keys"]["create"];

/**
 * Turns the form into `keys.create`'s input, or says in words what is wrong with each field (all of
 * them, so the form can mark every one). Only the name is needed; an empty field is left out, and
 * no rate-limit rows send no `rateLimits`.
 */
export function parseCreateKeyForm(fields: KeyFields, now: Date): FormParsed<CreateKeyInput> {
  const errors: FieldError[] = [];
  const name = parseName(fields.name);
  if (!name.ok) errors.push({ field: "name", message: name.message });
  const input: CreateKeyInput = { name: name.ok ? name.value : "" };

  const rateLimits = parseLimitRows(fields.rateLimits);
  if (!rateLimits.ok) errors.push(...rateLimits.errors);
  else if (rateLimits.value.length > 0) input.rateLimits = rateLimits.value;

  const expiresAt = parseExpiry(fields.expiresAt, now);
  if (!expiresAt.ok) errors.push({ field: "expiresAt", message: expiresAt.message });
  else if (expiresAt.value !== null) input.expiresAt = expiresAt.value;

  const permissions = parsePermissions(fields.permissions);
  if (!permissions.ok) errors.push({ field: "permissions", message: permissions.message });
  else if (permissions.value.length > 0) input.permissions = permissions.value;

  const credits = parseCredits(fields);
  if (!credits.ok) errors.push({ field: creditsField(fields), message: credits.message });
  else if (credits.value !== null) input.credits = credits.value;

  const meta = parseMeta(fields.meta);
  if (!meta.ok) errors.push({ field: "meta", message: meta.message });
  else if (meta.value !== null) input.meta = meta.value;

  const allowedIps = parseAllowedIps(fields.allowedIps);
  if (!allowedIps.ok) errors.push({ field: "allowedIps", message: allowedIps.message });
  else if (allowedIps.value !== null) input.allowedIps = allowedIps.value;

  return errors.length > 0 ? { ok: false, errors } : { ok: true, input };
}
