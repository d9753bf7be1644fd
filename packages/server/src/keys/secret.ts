import { hash } from "node:crypto";
import { crc32 } from "node:zlib";
import { encodeBase62, isBase62, randomBase62 } from "./base62.js";

const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32, so any CRC32 fits
const START_LENGTH = 4;

/** A freshly issued secret: the plaintext (shown once), its stored hash and its display prefix. */
export interface NewKey {
  key: string;
  hash: string;
  start: string;
}

function checksum(random: string): string {
  return encodeBase62(crc32(random), CHECKSUM_LENGTH);
}

/**
 * Issues a new secret `<prefix>_<32 base62 random><6 base62 CRC32 of the random part>`.
 * Only `hash` and `start` are meant to be stored.
 * @example const { key, hash, start } = newKey("kp"); // start === key.slice(0, 7)
 */
export function newKey(prefix: string): NewKey {
  const random = randomBase62(RANDOM_LENGTH);
  const key = `${prefix}_${random}${checksum(random)}`;
  return { key, hash: hashKey(key), start: `${prefix}_${random.slice(0, START_LENGTH)}` };
}

/**
 * Hex SHA-256 of the whole secret, the only form in which a secret is stored. Node's one-shot
 * `crypto.hash` (Node >= 20.12), not a `Hash` object: every verification hashes its key, and the
 * object costs about three times the digest of a 41-byte secret (docs/benchmarks.md).
 */
export function hashKey(key: string): string {
  return hash("sha256", key, "hex");
}

/**
 * Checks format and checksum without any I/O, so typos and garbage never reach the database.
 * @example isWellFormedKey(newKey("kp").key, "kp") // true
 */
export function isWellFormedKey(key: string, prefix: string): boolean {
  const head = `${prefix}_`;
  if (key.length !== head.length + RANDOM_LENGTH + CHECKSUM_LENGTH || !key.startsWith(head)) return false;
  const body = key.slice(head.length);
  if (!isBase62(body)) return false;
  const random = body.slice(0, RANDOM_LENGTH);
  return body.slice(RANDOM_LENGTH) === checksum(random);
}
