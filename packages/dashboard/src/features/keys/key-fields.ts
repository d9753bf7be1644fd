import type { RouterInputs } from "@keyport/server";
import {
  creditsInput,
  creditsRefill,
  jsonBytes,
  keyName,
  MAX_ALLOWED_IPS,
  MAX_CREDITS,
  MAX_KEY_NAME_LENGTH,
  MAX_META_BYTES,
  MAX_PERMISSION_LENGTH,
  MAX_PERMISSIONS,
  normaliseIpBlock,
  permission,
} from "@keyport/server/schemas";
import { formatCount } from "../../lib/format";
import type { Parsed } from "../../lib/parsed";
import { wholeNumber } from "../../lib/rate-limit";
import type { ApiKey } from "./key-status";
import { type LimitRow, limitRowsFrom } from "./limit-rows";

type CreateKeyInput = RouterInputs["keys"]["create"];
/** A key's credits as create and update take them. */
export type CreditsInput = NonNullable<CreateKeyInput["credits"]>;
/** A key's `meta`: a JSON object. */
export type KeyMetaInput = NonNullable<CreateKeyInput["meta"]>;
/** How credits refill, or "none". */
export type RefillChoice = "none" | "daily" | "monthly";

// The form checks each field with the server's own schemas (@keyport/server/schemas), so it answers
// before a round trip and cannot drift from what the server accepts; the words are the dashboard's.

/** The key dialogs' fields, as the inputs hold them (text). */
export interface KeyFields {
  name: string;
  /** The key's named rate limits, one row each ([] is none). */
  rateLimits: LimitRow[];
  /** A `datetime-local` value in the user's time zone, or "". */
  expiresAt: string;
  /** Permissions separated by commas, spaces or new lines. */
  permissions: string;
  creditsRemaining: string;
  refill: RefillChoice;
  refillAmount: string;
  /** A JSON object, or "". */
  meta: string;
  /** Addresses and CIDR blocks, one a line or separated by commas; "" is any address. */
  allowedIps: string;
}

/** A blank form: a name is all a key needs. */
export const EMPTY_KEY_FIELDS: KeyFields = {
  name: "",
  rateLimits: [],
  expiresAt: "",
  permissions: "",
  creditsRemaining: "",
  refill: "none",
  refillAmount: "",
  meta: "",
  allowedIps: "",
};

/** The form filled with what `key` holds now (for the edit dialog). */
export function keyFieldsFrom(key: ApiKey): KeyFields {
  return {
    name: key.name,
    rateLimits: limitRowsFrom(key.rateLimits),
    expiresAt: key.expiresAt === null ? "" : toDateTimeLocal(key.expiresAt),
    permissions: key.permissions.join(", "),
    // A PATCH sets the allowance only: purchased credits are shown in `remaining` but not editable.
    creditsRemaining: key.credits === null ? "" : String(key.credits.remaining - key.credits.purchased),
    refill: key.credits?.refill?.interval ?? "none",
    refillAmount: key.credits?.refill ? String(key.credits.refill.amount) : "",
    meta: key.meta === null ? "" : JSON.stringify(key.meta, null, 2),
    allowedIps: key.allowedIps === null ? "" : key.allowedIps.join("\n"),
  };
}

/**
 * A name as the server's `keyName` reads it: trimmed, 1 to `MAX_KEY_NAME_LENGTH` characters, no control
 * or invisible character (the message names the one found).
 */
export function parseName(text: string): Parsed<string> {
  const name = text.trim();
  if (name === "") return { ok: false, message: "Give the key a name." };
  if (name.length > MAX_KEY_NAME_LENGTH) {
    return { ok: false, message: `The name is at most ${MAX_KEY_NAME_LENGTH} characters.` };
  }
  const parsed = keyName.safeParse(name);
  if (!parsed.success)
    return { ok: false, message: `The name ${parsed.error.issues[0]?.message ?? "is not valid"}.` };
  return { ok: true, value: parsed.data };
}

/** An expiry from a `datetime-local` value: "" is none (null); otherwise a date after `now`. */
export function parseExpiry(text: string, now: Date): Parsed<Date | null> {
  if (text === "") return { ok: true, value: null };
  const expiresAt = new Date(text);
  if (Number.isNaN(expiresAt.getTime())) return { ok: false, message: "The expiry is not a valid date." };
  if (expiresAt <= now) return { ok: false, message: "The expiry must be in the future." };
  return { ok: true, value: expiresAt };
}

/**
 * Permissions from free text: split on commas and white space, duplicates dropped, order kept; each
 * a `permission` as the server reads it, and at most `MAX_PERMISSIONS` of them.
 * @example parsePermissions("prices:read, keys.*") // { ok: true, value: ["prices:read", "keys.*"] }
 */
export function parsePermissions(text: string): Parsed<string[]> {
  const list = [...new Set(text.split(/[\s,]+/).filter((item) => item !== ""))];
  const bad = list.find((item) => !permission.safeParse(item).success);
  if (bad !== undefined) {
    return {
      ok: false,
      message: `“${bad.slice(0, 70)}” is not a permission: use 1-${MAX_PERMISSION_LENGTH} characters of a-z, 0-9, _ . : * -.`,
    };
  }
  if (list.length > MAX_PERMISSIONS) {
    return {
      ok: false,
      message: `A key holds at most ${MAX_PERMISSIONS} permissions (this is ${list.length}).`,
    };
  }
  return { ok: true, value: list };
}

/**
 * Credits from the form: no balance and no refill is an unmetered key (null). A balance is 0 to
 * `MAX_CREDITS`; a refill needs an amount from 1 to `MAX_CREDITS` (the server's `creditsInput`).
 */
export function parseCredits(
  fields: Pick<KeyFields, "creditsRemaining" | "refill" | "refillAmount">,
): Parsed<CreditsInput | null> {
  const remainingText = fields.creditsRemaining.trim();
  if (remainingText === "" && fields.refill === "none") return { ok: true, value: null };
  const remaining = wholeNumber(remainingText);
  if (remaining === null || !creditsInput.shape.remaining.safeParse(remaining).success) {
    return { ok: false, message: `Credits are a whole number from 0 to ${formatCount(MAX_CREDITS)}.` };
  }
  if (fields.refill === "none") return { ok: true, value: { remaining, refill: null } };
  const amount = wholeNumber(fields.refillAmount);
  if (amount === null || !creditsRefill.shape.amount.safeParse(amount).success) {
    return {
      ok: false,
      message: `The refill amount is a whole number from 1 to ${formatCount(MAX_CREDITS)}.`,
    };
  }
  return { ok: true, value: { remaining, refill: { interval: fields.refill, amount } } };
}

/** Metadata from the form: "" is none (null); otherwise a JSON object of at most 1,024 bytes of JSON. */
export function parseMeta(text: string): Parsed<KeyMetaInput | null> {
  if (text.trim() === "") return { ok: true, value: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "The metadata is not valid JSON." };
  }
  if (!isJsonObject(value)) {
    return { ok: false, message: 'The metadata must be a JSON object, like {"customerId": "cus_123"}.' };
  }
  const bytes = jsonBytes(value);
  if (bytes > MAX_META_BYTES) {
    return {
      ok: false,
      message: `The metadata is at most ${formatCount(MAX_META_BYTES)} bytes of JSON (this is ${formatCount(bytes)}).`,
    };
  }
  return { ok: true, value };
}

// JSON.parse gives only JSON values, so an object that is not an array is a JSON object.
function isJsonObject(value: unknown): value is KeyMetaInput {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An allow-list from free text: entries split on new lines, commas and white space, each an IPv4 or IPv6
 * address or CIDR block, normalised as the server stores it (host bits cleared, a single address as /32
 * or /128), duplicates dropped; "" is any address (null). The message names the first bad entry.
 * @example parseAllowedIps("10.1.2.3/8\n2001:DB8::1") // { ok: true, value: ["10.0.0.0/8", "2001:db8::1/128"] }
 */
export function parseAllowedIps(text: string): Parsed<string[] | null> {
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== "");
  if (entries.length === 0) return { ok: true, value: null };
  const list: string[] = [];
  for (const entry of entries) {
    const block = normaliseIpBlock(entry);
    if (block === null) {
      return {
        ok: false,
        message: `“${entry.slice(0, 70)}” is not an IP address or CIDR block, like 203.0.113.7, 10.0.0.0/8 or 2001:db8::/32.`,
      };
    }
    if (!list.includes(block)) list.push(block);
  }
  if (list.length > MAX_ALLOWED_IPS) {
    return {
      ok: false,
      message: `A key allows at most ${MAX_ALLOWED_IPS} addresses or blocks (this is ${list.length}).`,
    };
  }
  return { ok: true, value: list };
}

/** `2031-06-01T10:00` in the user's time zone: what a `datetime-local` input holds. */
export function toDateTimeLocal(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
