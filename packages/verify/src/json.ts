/** Any JSON value, as `meta` holds. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What a value looks like after `JSON.stringify`: a Date becomes its ISO-8601 string; a JSON value
 * (zod's `z.json()`) is named `JsonValue` rather than spelled out.
 */
export type Jsonified<T> = [T] extends [JsonValue]
  ? [JsonValue] extends [T]
    ? JsonValue
    : JsonifiedParts<T>
  : JsonifiedParts<T>;

type JsonifiedParts<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? Jsonified<Item>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;
