// @keyport/verify: verify Keyport keys from any backend over fetch. Middleware: "@keyport/verify/h3",
// "@keyport/verify/hono", "@keyport/verify/express".

// The error a verification request refused by Keyport rejects with
export { KeyportError } from "@keyport/errors";
export { clientAddress } from "./client-address.js";
// For writing middleware for another framework
export {
  type Decision,
  decide,
  type Header,
  type KeyportContext,
  type TopUpRequest,
  type UnavailablePolicy,
} from "./decision.js";
export type { JsonValue } from "./json.js";
export type { GetIp, GetKey, KeyportOptions } from "./middleware-options.js";
export { readKey } from "./read-key.js";
export type { VerificationJson, VerifyOptions } from "./server-types.js";
export type { TopUpOptions } from "./top-up-client.js";
// Its answers
export {
  isVerification,
  type KeyportUnavailable,
  type UnavailableReason,
  type UnrecognizedRefusal,
  type ValidVerification,
  type Verification,
  type VerificationCode,
  type VerificationRateLimit,
  type VerifyResult,
} from "./verification.js";
// The verifier
export {
  createVerifier,
  type Verifier,
  type VerifierOptions,
  type VerifyLogger,
} from "./verifier.js";
export type { X402PaymentRequired, X402Requirement, X402Resource } from "./x402-headers.js";
