import { randomBytes } from "node:crypto";

/** Digits, then upper case, then lower case: the order most base62 encoders use. */
export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const BASE62_PATTERN = /^[0-9A-Za-z]*$/;

// 248 = 62 * 4: bytes at or above it are dropped so every character is equally likely.
const UNBIASED_LIMIT = 248;

/**
 * Uniformly random base62 string from the OS CSPRNG (rejection sampling, no modulo bias).
 * @example randomBase62(32) // "q3Xk..." (32 characters, ~190 bits)
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62_ALPHABET.charAt(byte % 62);
      if (out.length === length) break;
    }
  }
  return out;
}

/** Encodes a non-negative integer as base62, left-padded with "0" to `width` characters. */
export function encodeBase62(value: number, width: number): string {
  let rest = value;
  let out = "";
  do {
    out = BASE62_ALPHABET.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, "0");
}

/** True when every character is in the base62 alphabet. */
export function isBase62(value: string): boolean {
  return BASE62_PATTERN.test(value);
}
