import { z } from "zod";
import { WALLET_PATTERN } from "../schemas/common.js";
import type { WalletSort } from "../schemas/operator-wallets.js";

/** Where a page of the operator's wallet list ended: the sort, the last wallet's sort value and address. */
export type WalletCursor =
  | { sort: "lastActive"; value: Date; address: string }
  | { sort: "activeKeys"; value: number; address: string };

// Year 0 is valid ISO-8601 but not a PostgreSQL timestamp: a forged cursor must get 400, not a failed query.
const moment = z.iso.datetime().refine((value) => new Date(value).getUTCFullYear() >= 1);
const address = z.string().regex(WALLET_PATTERN);

const decoded = z.union([
  z.tuple([z.literal("lastActive"), moment, address]),
  z.tuple([z.literal("activeKeys"), z.number().int().min(0).max(1_000_000_000), address]),
]);

/** Opaque to clients: base64url of `[sort, value, address]`. */
export function encodeWalletCursor(cursor: WalletCursor): string {
  const value = cursor.value instanceof Date ? cursor.value.toISOString() : cursor.value;
  return Buffer.from(JSON.stringify([cursor.sort, value, cursor.address])).toString("base64url");
}

/** The cursor, or null when it is not one this server issued for `sort`. */
export function decodeWalletCursor(text: string, sort: WalletSort): WalletCursor | null {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = decoded.safeParse(json);
  if (!parsed.success || parsed.data[0] !== sort) return null;
  const data = parsed.data;
  return data[0] === "lastActive"
    ? { sort: "lastActive", value: new Date(data[1]), address: data[2] }
    : { sort: "activeKeys", value: data[1], address: data[2] };
}
