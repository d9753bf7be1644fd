import { randomBytes } from "node:crypto";

// Crockford's base32, as ULIDs spell them.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RANDOM_MAX = (1n << 80n) - 1n;

// The last id's time and random part: ids made in one millisecond count up from it (ULID's
// monotonic mode), so events written in one millisecond keep the order they were made in.
let lastTime = -1;
let lastRandom = 0n;

/**
 * A new webhook message id: `msg_` + a ULID (48 bits of milliseconds, 80 random bits), so ids sort
 * by creation time and receivers can deduplicate on `webhook-id` (docs/webhooks.md). Within one
 * millisecond, each id is the previous one plus one.
 * @example newMessageId(new Date()) // "msg_01JDZ6..."
 */
export function newMessageId(now: Date): string {
  const time = now.getTime();
  let random = BigInt(`0x${randomBytes(10).toString("hex")}`);
  if (time === lastTime && lastRandom < RANDOM_MAX) random = lastRandom + 1n;
  lastTime = time;
  lastRandom = random;
  return `msg_${encode(BigInt(time), 10)}${encode(random, 16)}`;
}

/** `value` in `digits` base32 digits, most significant first. */
function encode(value: bigint, digits: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < digits; i++) {
    out = (ALPHABET[Number(rest & 31n)] ?? "0") + out;
    rest >>= 5n;
  }
  return out;
}
