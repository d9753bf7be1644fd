import { KEY_ID_PATTERN } from "../schemas/common.js";
import { isBase62, randomBase62 } from "./base62.js";

const KEY_ID_PREFIX = "key_";
const KEY_ID_RANDOM_LENGTH = 22;

/**
 * A new key id: `key_` + 22 base62 characters (~131 bits), unguessable so ids leak nothing.
 * @example newKeyId() // "key_3hG7...": 26 characters
 */
export function newKeyId(): string {
  return KEY_ID_PREFIX + randomBase62(KEY_ID_RANDOM_LENGTH);
}

/** True for strings shaped like a key id (does not check that the key exists). */
export function isKeyId(value: string): boolean {
  return value.startsWith(KEY_ID_PREFIX) && KEY_ID_PATTERN.test(value) && isBase62(value.slice(4));
}
