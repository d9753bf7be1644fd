import { getAddress } from "viem";
import { z } from "zod";
import { storedText } from "./stored-text.js";

export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** The id format docs/api.md promises: `key_` + 16-64 base62 characters (keys/id.ts mints 22). */
export const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{16,64}$/;

/** A wallet in any case; parsed to its EIP-55 checksummed form. */
export const walletInput = z
  .string()
  .regex(WALLET_PATTERN, "must be an EVM address: 0x followed by 40 hex characters")
  .transform((value) => getAddress(value.toLowerCase()))
  .meta({
    description: "EVM address, any case (returned EIP-55 checksummed)",
    example: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  });

/** A wallet as the server returns it: EIP-55 checksummed. */
export const wallet = z.string().regex(WALLET_PATTERN).meta({
  description: "EIP-55 checksummed EVM address",
  example: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
});

/** `key_` + at least 16 base62 characters. */
export const keyId = z
  .string()
  .regex(KEY_ID_PATTERN, "must be a key id: key_ followed by 16-64 base62 characters")
  .meta({ description: "Key id", example: "key_7dG2kQx9LmN4pR8sT1vW3y" });

/** A point in time: `Date` over tRPC (superjson), ISO-8601 string over REST. */
export const timestamp = z.date().meta({ format: "date-time", description: "ISO-8601 timestamp" });

/** A time sent by a caller: a `Date` over tRPC, an ISO-8601 string with offset over REST. */
export const timestampInput = z
  .union([z.date(), z.iso.datetime({ offset: true })])
  .transform((value) => new Date(value))
  // PostgreSQL cannot read what Date.toISOString() writes past year 9999 (`+010000-...`) or for
  // year 0, and usage ranges reach back 30 days from `to`: keep every input well inside both ends.
  .refine((date) => {
    const year = date.getUTCFullYear();
    return year >= 1970 && year <= 9999;
  }, "must be between the years 1970 and 9999")
  .meta({ description: "ISO-8601 timestamp with offset, e.g. 2030-01-01T00:00:00Z" });

/** The input of a procedure that takes none (REST ignores any body once it is read). */
export const noInput = z.void();

/** Largest `limit` of a paginated list. */
export const MAX_PAGE_LIMIT = 100;

/** `limit` of a paginated list: 1-100, 50 by default. */
export const pageLimit = z.number().int().min(1).max(MAX_PAGE_LIMIT).default(50);

/** `cursor` of a paginated list: the previous page's `nextCursor`. */
export const pageCursor = storedText
  .max(200)
  .optional()
  .meta({ description: "Opaque cursor from a previous page's nextCursor" });

/** `nextCursor` of a paginated list's answer. */
export const nextCursor = z
  .string()
  .nullable()
  .meta({ description: "Pass as `cursor` for the next page; null at the end" });
