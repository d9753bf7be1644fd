import { randomFillSync } from "node:crypto";

/** Digits, then upper case, then lower case: the order most base62 encoders use. */
export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const BASE62_PATTERN = /^[0-9A-Za-z]*$/;

// 248 = 62 * 4: bytes at or above it are dropped so every character is equally likely.
const UNBIASED_LIMIT = 248;

// Random bytes are drawn from the OS CSPRNG 4 KiB at a time and each byte is used once (as nanoid
// and uuid do): one `randomFillSync` per 4 KiB instead of one `randomBytes` per string, which was
// about a twentieth of a key create's CPU.
const POOL_SIZE = 4_096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let used = POOL_SIZE;

function randomByte(): number {
  if (used === POOL_SIZE) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++] as number;
}

/**
 * Uniformly random base62 string from the OS CSPRNG (rejection sampling, no modulo bias).
 * @example randomBase62(32) // "q3Xk..." (32 characters, ~190 bits)
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < UNBIASED_LIMIT) out += BASE62_ALPHABET.charAt(byte % 62);
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
