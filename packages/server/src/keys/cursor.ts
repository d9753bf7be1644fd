import { z } from "zod";
import type { SortOrder } from "./list-order.js";

/**
 * Where a page ended: the sort it was read in, and the last key's sort value and id (ties broken by
 * id). `value` is the creation time (`created`), the last use or null for a never-used key
 * (`lastUsed`), or the name (`name`).
 */
export type PageCursor =
  | { sort: "created"; order: SortOrder; value: Date; id: string }
  | { sort: "lastUsed"; order: SortOrder; value: Date | null; id: string }
  | { sort: "name"; order: SortOrder; value: string; id: string };

// Year 0 is valid ISO-8601 but not a PostgreSQL timestamp: a forged cursor must get 400, not a failed query.
const moment = z.iso.datetime().refine((value) => new Date(value).getUTCFullYear() >= 1);
const id = z.string().regex(/^key_[0-9A-Za-z]{16,64}$/);
const order = z.enum(["asc", "desc"]);

const decoded = z.union([
  z.tuple([z.literal("created"), order, moment, id]),
  z.tuple([z.literal("lastUsed"), order, moment.nullable(), id]),
  // A name is at most 64 UTF-16 code units (schemas/key-name.ts).
  z.tuple([z.literal("name"), order, z.string().max(64), id]),
  // The cursors of servers before sorting existed: newest first by creation time.
  z.tuple([moment, id]),
]);

function plain(cursor: PageCursor): string | null {
  if (cursor.value instanceof Date) return cursor.value.toISOString();
  return cursor.value;
}

/** Opaque to clients: base64url of `[sort, order, value, id]`. */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.order, plain(cursor), cursor.id])).toString(
    "base64url",
  );
}

function toCursor(data: z.infer<typeof decoded>): PageCursor {
  if (data.length === 2) return { sort: "created", order: "desc", value: new Date(data[0]), id: data[1] };
  switch (data[0]) {
    case "created":
      return { sort: "created", order: data[1], value: new Date(data[2]), id: data[3] };
    case "lastUsed":
      return {
        sort: "lastUsed",
        order: data[1],
        value: data[2] === null ? null : new Date(data[2]),
        id: data[3],
      };
    case "name":
      return { sort: "name", order: data[1], value: data[2], id: data[3] };
  }
}

/** Parses a cursor from `encodeCursor` (or an older server's `[createdAt, id]`); null for anything else. */
export function decodeCursor(value: string): PageCursor | null {
  try {
    const result = decoded.safeParse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
    return result.success ? toCursor(result.data) : null;
  } catch {
    return null;
  }
}
