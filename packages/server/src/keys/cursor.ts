import { z } from "zod";

/** Where a page ended: the last key's creation time and id (ties broken by id). */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

// Year 0 is valid ISO-8601 but not a PostgreSQL timestamp: a forged cursor must get 400, not a failed query.
const decoded = z.tuple([
  z.iso.datetime().refine((value) => new Date(value).getUTCFullYear() >= 1),
  z.string().regex(/^key_[0-9A-Za-z]{16,64}$/),
]);

/** Opaque to clients: base64url of `[createdAt ISO, id]`. */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString("base64url");
}

/** Parses a cursor from `encodeCursor`; null for anything else. */
export function decodeCursor(value: string): PageCursor | null {
  try {
    const result = decoded.safeParse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
    if (!result.success) return null;
    return { createdAt: new Date(result.data[0]), id: result.data[1] };
  } catch {
    return null;
  }
}
