// The public types of a verification, built on the server's own (server-types.ts).
import type { VerificationJson } from "./server-types.js";

/** Every code a verification answers with. */
export type VerificationCode = VerificationJson["code"];

/** The binding rate-limit window after a verification (`resetAt` as an ISO-8601 string). */
export type VerificationRateLimit = NonNullable<VerificationJson["ratelimit"]>;

/** What one code's answer looks like: `valid` is true exactly for VALID; only NOT_FOUND knows no key. */
type VerificationOf<Code extends VerificationCode> = Omit<
  VerificationJson,
  "valid" | "code" | "keyId" | "wallet"
> & {
  valid: Code extends "VALID" ? true : false;
  code: Code;
  keyId: Code extends "NOT_FOUND" ? null : string;
  wallet: Code extends "NOT_FOUND" ? null : string;
};

/**
 * Keyport's answer about one key: the JSON of `POST /api-keys/verify`, a union discriminated on
 * `valid` and `code`, so checking either narrows the rest (a VALID answer always has its `keyId`).
 * @example if (result.valid) console.log(result.keyId, result.permissions)
 */
export type Verification = { [Code in VerificationCode]: VerificationOf<Code> }[VerificationCode];

/** A verification that let the key through (`code: "VALID"`). */
export type ValidVerification = Extract<Verification, { valid: true }>;

/** Why Keyport gave no verification: no answer in time, no connection, a 5xx, or a body that is not one. */
export type UnavailableReason = "timeout" | "network" | "server_error" | "bad_answer";

/**
 * Keyport could not answer (a value, not an exception: every caller must decide what it means).
 * `status` is Keyport's HTTP status when one arrived.
 */
export interface KeyportUnavailable {
  valid: false;
  code: "UNAVAILABLE";
  reason: UnavailableReason;
  status: number | null;
}

/**
 * Keyport refused the key with a `code` this version of the package does not know: a newer server's
 * (docs/upgrading.md). It is a refusal like any other (the middleware answers 403), never "Keyport
 * unavailable", so `onUnavailable: "allow"` cannot let it in. `serverCode` is Keyport's own code;
 * upgrading the package handles it by name.
 */
export interface UnrecognizedRefusal {
  valid: false;
  code: "UNRECOGNIZED";
  /** The code Keyport answered, e.g. `WALLET_SUSPENDED`. */
  serverCode: string;
  /** The key's id and wallet when the answer carried them as strings, else null. */
  keyId: string | null;
  wallet: string | null;
}

/**
 * What `verify` resolves to: Keyport's verification, a refusal with a code this version does not know,
 * or `UNAVAILABLE` when Keyport could not answer.
 */
export type VerifyResult = Verification | UnrecognizedRefusal | KeyportUnavailable;

// Every code, checked by the compiler against the server's union both ways (a missing or unknown key
// fails to compile), so an answer can be checked at run time without zod.
const CODES: Record<VerificationCode, true> = {
  VALID: true,
  NOT_FOUND: true,
  REVOKED: true,
  EXPIRED: true,
  IP_NOT_ALLOWED: true,
  INSUFFICIENT_PERMISSIONS: true,
  USAGE_EXCEEDED: true,
  RATE_LIMITED: true,
  WALLET_SUSPENDED: true,
};

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;
const isStringOrNull = (value: unknown) => value === null || typeof value === "string";

/** True when `code` is one of the server's verification codes. */
export function isVerificationCode(code: unknown): code is VerificationCode {
  return typeof code === "string" && Object.hasOwn(CODES, code);
}

/**
 * The refusal a parsed body is when it is `valid: false` with a code this version does not know (a
 * newer server's), else undefined. Nothing else of the body is trusted: only `keyId` and `wallet`
 * are kept, and only when they are strings.
 */
export function readUnrecognizedRefusal(body: unknown): UnrecognizedRefusal | undefined {
  if (!isObject(body)) return undefined;
  const code = Reflect.get(body, "code");
  if (
    Reflect.get(body, "valid") !== false ||
    typeof code !== "string" ||
    code === "" ||
    isVerificationCode(code)
  )
    return undefined;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    valid: false,
    code: "UNRECOGNIZED",
    serverCode: code,
    keyId: text(Reflect.get(body, "keyId")),
    wallet: text(Reflect.get(body, "wallet")),
  };
}

/**
 * True when a parsed body is a verification: each field checked by its kind (a body is never trusted;
 * fields it does not name are ignored, since answers only grow),
 * `valid` agreeing with `code`, and `keyId` null exactly for NOT_FOUND.
 */
export function isVerification(body: unknown): body is Verification {
  if (!isObject(body)) return false;
  const field = (name: string): unknown => Reflect.get(body, name);
  const code = field("code");
  const keyId = field("keyId");
  const ratelimit = field("ratelimit");
  const credits = field("credits");
  const meta = field("meta");
  return (
    isVerificationCode(code) &&
    field("valid") === (code === "VALID") &&
    (code === "NOT_FOUND" ? keyId === null : typeof keyId === "string") &&
    isStringOrNull(field("wallet")) &&
    isStringOrNull(field("expiresAt")) &&
    (ratelimit === null || isRateLimit(ratelimit)) &&
    Array.isArray(field("permissions")) &&
    (credits === null ||
      (isObject(credits) &&
        typeof Reflect.get(credits, "remaining") === "number" &&
        typeof Reflect.get(credits, "purchased") === "number" &&
        isStringOrNull(Reflect.get(credits, "refillAt")))) &&
    (meta === null || isObject(meta))
  );
}

function isRateLimit(value: unknown): value is VerificationRateLimit {
  return (
    isObject(value) &&
    typeof Reflect.get(value, "limit") === "number" &&
    typeof Reflect.get(value, "remaining") === "number" &&
    typeof Reflect.get(value, "resetAt") === "string"
  );
}
