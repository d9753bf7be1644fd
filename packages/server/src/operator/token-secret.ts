import { randomBase62 } from "../keys/base62.js";
import { hashKey, isWellFormedKey, type NewKey, newKey } from "../keys/secret.js";

/**
 * Operator tokens are keys of their own prefix, `<KEY_PREFIX>o` (`kpo_...` by default): the same body,
 * checksum and hashing as API keys, so leak scanners find them and tell them apart, and a typo is
 * refused without a database query (docs/operator.md#tokens).
 */
export function operatorTokenPrefix(keyPrefix: string): string {
  return `${keyPrefix}o`;
}

/** A new operator token: the secret (shown once), its hash and its display start. */
export function newOperatorToken(keyPrefix: string): NewKey {
  return newKey(operatorTokenPrefix(keyPrefix));
}

/** Whether `value` has an operator token's shape and checksum (no I/O). */
export function isOperatorToken(value: string, keyPrefix: string): boolean {
  return isWellFormedKey(value, operatorTokenPrefix(keyPrefix));
}

/** The stored form of a token. */
export const hashOperatorToken = hashKey;

/** A new token id: `opt_` + 22 base62 characters. */
export function newOperatorTokenId(): string {
  return `opt_${randomBase62(22)}`;
}
