import type { RouterInputs } from "@keyport/server";

/** What `keys.create` takes. */
export type CreateKeyInput = RouterInputs["keys"]["create"];

/** The create form's fields, as the inputs hold them (text). */
export interface CreateKeyFields {
  name: string;
  limit: string;
  windowSeconds: string;
  /** A `datetime-local` value in the user's time zone, or "". */
  expiresAt: string;
}

/**
 * Turns the form into `keys.create`'s input, or says what is wrong in words. Rate limit and expiry
 * are optional; a rate limit needs both numbers.
 */
export function parseCreateKeyForm(
  fields: CreateKeyFields,
  now: Date,
): { ok: true; input: CreateKeyInput } | { ok: false; message: string } {
  const name = fields.name.trim();
  if (name === "") return { ok: false, message: "Give the key a name." };
  if (name.length > 64) return { ok: false, message: "The name is at most 64 characters." };
  const input: CreateKeyInput = { name };

  if (fields.limit !== "" || fields.windowSeconds !== "") {
    const limit = Number(fields.limit);
    const windowSeconds = Number(fields.windowSeconds);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000) {
      return { ok: false, message: "The rate limit is a whole number of requests from 1 to 1,000,000." };
    }
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > 86_400) {
      return { ok: false, message: "The rate limit window is a whole number of seconds from 1 to 86,400." };
    }
    input.rateLimit = { limit, windowSeconds };
  }

  if (fields.expiresAt !== "") {
    const expiresAt = new Date(fields.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) return { ok: false, message: "The expiry is not a valid date." };
    if (expiresAt <= now) return { ok: false, message: "The expiry must be in the future." };
    input.expiresAt = expiresAt;
  }
  return { ok: true, input };
}
