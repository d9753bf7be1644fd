import type { z } from "zod";
import { MAX_PERMISSION_LENGTH, MAX_PERMISSIONS } from "../schemas/key-policy.js";
import { MAX_VERIFY_KEY_LENGTH, type verifyKeyInput } from "../schemas/verification.js";

/** What verify's input schema gives for a body: the key, the default cost, the asked options. */
export type VerifyInput = z.output<typeof verifyKeyInput>;

// The bytes around the key and the permissions in the commonest verify bodies.
const KEY_HEAD = Buffer.from('{"key":"');
const PERMISSIONS_HEAD = Buffer.from('","permissions":[');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * The input of a verify body that is exactly `{"key":"…"}` or `{"key":"…","permissions":[…]}` (no
 * spaces, no other field, in this order, as the SDKs write them): what `JSON.parse` and
 * `verifyKeyInput` give for it (`{ key, permissions?, cost: 1 }`), without either. The key must be
 * printable ASCII without escapes, at most `MAX_VERIFY_KEY_LENGTH` long; each permission must pass
 * the permission schema (1-64 of `a-z 0-9 _ . : * -`), at most `MAX_PERMISSIONS` of them. Undefined
 * for any other body, which then takes the full parse and validation: so the scan decides nothing
 * the schema would not. Parsing these bodies generally was about 3-6 µs of a verification's CPU
 * (docs/benchmarks.md). A property test holds it to the full path (verify-body.test.ts).
 * @example plainVerifyInput(Buffer.from('{"key":"kp_abc"}')) // { key: "kp_abc", cost: 1 }
 */
export function plainVerifyInput(body: Buffer): VerifyInput | undefined {
  if (!hasAt(body, 0, KEY_HEAD)) return undefined;
  let at = KEY_HEAD.length;
  while (at < body.length && isKeyByte(body[at] ?? 0)) at++;
  if (at - KEY_HEAD.length > MAX_VERIFY_KEY_LENGTH || body[at] !== QUOTE) return undefined;
  const key = body.toString("latin1", KEY_HEAD.length, at);
  if (at + 2 === body.length && body[at + 1] === CLOSE_BRACE) return { key, cost: 1 };
  if (!hasAt(body, at, PERMISSIONS_HEAD)) return undefined;
  at += PERMISSIONS_HEAD.length;
  const permissions: string[] = [];
  if (body[at] === CLOSE_BRACKET) at++;
  else {
    for (;;) {
      if (body[at] !== QUOTE) return undefined;
      const start = ++at;
      while (at < body.length && isPermissionByte(body[at] ?? 0)) at++;
      if (at === start || at - start > MAX_PERMISSION_LENGTH || body[at] !== QUOTE) return undefined;
      if (permissions.push(body.toString("latin1", start, at)) > MAX_PERMISSIONS) return undefined;
      at++;
      if (body[at] === COMMA) at++;
      else if (body[at] === CLOSE_BRACKET) {
        at++;
        break;
      } else return undefined;
    }
  }
  if (at + 1 !== body.length || body[at] !== CLOSE_BRACE) return undefined;
  return { key, permissions, cost: 1 };
}

function hasAt(body: Buffer, at: number, bytes: Buffer): boolean {
  if (at + bytes.length > body.length) return false;
  for (let i = 0; i < bytes.length; i++) if (body[at + i] !== bytes[i]) return false;
  return true;
}

// Control characters and non-ASCII need JSON's and UTF-8's rules; a quote ends the key, a backslash escapes.
function isKeyByte(byte: number): boolean {
  return byte >= 0x20 && byte <= 0x7e && byte !== QUOTE && byte !== BACKSLASH;
}

// The permission schema's characters: a-z 0-9 _ . : * -
function isPermissionByte(byte: number): boolean {
  return (
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x30 && byte <= 0x3a) || // 0-9 and ":"
    byte === 0x5f ||
    byte === 0x2e ||
    byte === 0x2a ||
    byte === 0x2d
  );
}
