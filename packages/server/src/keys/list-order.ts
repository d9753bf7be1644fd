import { and, asc, desc, eq, gt, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { type ApiKeyRow, apiKeys } from "../db/schema/index.js";
import type { PageCursor } from "./cursor.js";

/** What the keys list sorts by: creation time (the default), last use, or name. */
export const KEY_SORTS = ["created", "lastUsed", "name"] as const;
export type KeySort = (typeof KEY_SORTS)[number];
export type SortOrder = "asc" | "desc";

/** Names sort case-insensitively; the same expression orders, compares cursors and is indexed. */
export const lowerName = sql`lower(${apiKeys.name})`;

/**
 * ORDER BY of a sort: the sort key, then id in the same direction, so every key has one place. Keys
 * never used sort last in both orders (docs/api.md#list-keys).
 */
export function orderOf(sort: KeySort, order: SortOrder): SQL[] {
  const by = order === "asc" ? asc : desc;
  switch (sort) {
    case "created":
      return [by(apiKeys.createdAt), by(apiKeys.id)];
    case "lastUsed":
      return [sql`${apiKeys.lastUsedAt} ${sql.raw(order)} nulls last`, by(apiKeys.id)];
    case "name":
      return [by(lowerName), by(apiKeys.id)];
  }
}

/** The rows that come after `cursor` in its sort: strictly later sort key, or the same key and a later id. */
export function afterCursor(cursor: PageCursor): SQL | undefined {
  const later = cursor.order === "asc" ? gt : lt;
  const laterId = later(apiKeys.id, cursor.id);
  switch (cursor.sort) {
    case "created":
      return or(later(apiKeys.createdAt, cursor.value), and(eq(apiKeys.createdAt, cursor.value), laterId));
    case "lastUsed":
      // Never-used keys come after every used one, among themselves by id.
      if (cursor.value === null) return and(isNull(apiKeys.lastUsedAt), laterId);
      return or(
        and(isNotNull(apiKeys.lastUsedAt), later(apiKeys.lastUsedAt, cursor.value)),
        and(eq(apiKeys.lastUsedAt, cursor.value), laterId),
        isNull(apiKeys.lastUsedAt),
      );
    case "name": {
      const name = sql`lower(${cursor.value}::text)`;
      return or(
        cursor.order === "asc" ? sql`${lowerName} > ${name}` : sql`${lowerName} < ${name}`,
        and(sql`${lowerName} = ${name}`, laterId),
      );
    }
  }
}

/** The cursor that resumes after `row` in this sort. */
export function cursorAfter(row: ApiKeyRow, sort: KeySort, order: SortOrder): PageCursor {
  switch (sort) {
    case "created":
      return { sort, order, value: row.createdAt, id: row.id };
    case "lastUsed":
      return { sort, order, value: row.lastUsedAt, id: row.id };
    case "name":
      return { sort, order, value: row.name, id: row.id };
  }
}
