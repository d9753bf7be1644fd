import { randomBytes } from "node:crypto";

// Crockford's base32, as ULIDs spell them.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A new webhook message id: `msg_` + a ULID (48 bits of milliseconds, 80 random bits), so ids sort
 * by creation time and receivers can deduplicate on `webhook-id` (docs/webhooks.md).
 * @example newMessageId(new Date()) // "msg_01JDZ6..."
 */
export function newMessageId(now: Date): string {
  let time = now.getTime();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = (ALPHABET[time % 32] ?? "0") + head;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(10);
  let tail = "";
  // 80 bits as 16 base32 digits: take the bytes 5 bits at a time.
  let buffer = 0;
  let bits = 0;
  for (const byte of random) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      tail += ALPHABET[(buffer >> bits) & 31] ?? "0";
    }
    buffer &= (1 << bits) - 1;
  }
  return `msg_${head}${tail}`;
}
