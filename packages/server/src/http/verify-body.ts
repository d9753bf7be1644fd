import type { z } from "zod";
import { MAX_VERIFY_KEY_LENGTH, type verifyKeyInput } from "../schemas/verification.js";

/** What verify's input schema gives for a body: the key, the default cost, the asked options. */
export type VerifyInput = z.output<typeof verifyKeyInput>;

// `{"key":"` and `"}`, the only bytes around the key in the commonest verify body.
const HEAD = Buffer.from('{"key":"');
const TAIL_QUOTE = 0x22;
const TAIL_BRACE = 0x7d;
const BACKSLASH = 0x5c;

/**
 * The input of a verify body that is exactly `{"key":"…"}` (no spaces, no other field) with a key
 * of printable ASCII without escapes, at most `MAX_VERIFY_KEY_LENGTH` long: what `JSON.parse` and
 * `verifyKeyInput` would give for it (`{ key, cost: 1 }`), without either. Undefined for any other
 * body, which then takes the full parse and validation. This is the body every SDK sends for a
 * plain verification, and parsing it generally was about 3 µs of a verification's CPU
 * (docs/benchmarks.md). Its agreement with the full path is a property test (verify-body.test.ts).
 * @example plainVerifyInput(Buffer.from('{"key":"kp_abc"}')) // { key: "kp_abc", cost: 1 }
 */
export function plainVerifyInput(body: Buffer): VerifyInput | undefined {
  const end = body.length - 2;
  if (end < HEAD.length || end - HEAD.length > MAX_VERIFY_KEY_LENGTH) return undefined;
  if (body[end] !== TAIL_QUOTE || body[end + 1] !== TAIL_BRACE) return undefined;
  for (let i = 0; i < HEAD.length; i++) if (body[i] !== HEAD[i]) return undefined;
  for (let i = HEAD.length; i < end; i++) {
    const byte = body[i] ?? 0;
    // Control characters and non-ASCII need JSON's and UTF-8's rules; a quote or backslash, escapes.
    if (byte < 0x20 || byte > 0x7e || byte === TAIL_QUOTE || byte === BACKSLASH) return undefined;
  }
  return { key: body.toString("latin1", HEAD.length, end), cost: 1 };
}
