import type { RouterInputs } from "@keyport/server";
import { parseRateLimit } from "../../lib/rate-limit";
import {
  type KeyFields,
  parseCredits,
  parseExpiry,
  parseMeta,
  parseName,
  parsePermissions,
} from "./key-fields";

/** What `keys.create` takes. */
export type CreateKeyInput = RouterInputs["keys"]["create"];

/**
 * Turns the form into `keys.create`'s input, or says what is wrong in words. Only the name is needed;
 * an empty field is left out (a rate limit needs both numbers).
 */
export function parseCreateKeyForm(
  fields: KeyFields,
  now: Date,
): { ok: true; input: CreateKeyInput } | { ok: false; message: string } {
  const name = parseName(fields.name);
  if (!name.ok) return name;
  const input: CreateKeyInput = { name: name.value };

  const rateLimit = parseRateLimit(fields.limit, fields.windowSeconds);
  if (!rateLimit.ok) return rateLimit;
  if (rateLimit.value !== null) input.rateLimit = rateLimit.value;

  const expiresAt = parseExpiry(fields.expiresAt, now);
  if (!expiresAt.ok) return expiresAt;
  if (expiresAt.value !== null) input.expiresAt = expiresAt.value;

  const permissions = parsePermissions(fields.permissions);
  if (!permissions.ok) return permissions;
  if (permissions.value.length > 0) input.permissions = permissions.value;

  const credits = parseCredits(fields);
  if (!credits.ok) return credits;
  if (credits.value !== null) input.credits = credits.value;

  const meta = parseMeta(fields.meta);
  if (!meta.ok) return meta;
  if (meta.value !== null) input.meta = meta.value;
  return { ok: true, input };
}
