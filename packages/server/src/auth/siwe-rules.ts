import { getAddress } from "viem";
import { NONCE_TTL_SECONDS } from "./nonce.js";
import type { SiweMessageFields, SiweSyntaxError } from "./siwe-message.js";

// Clocks drift: accept an issued-at up to this far in the future, and this much past the nonce's lifetime.
const CLOCK_SKEW_MS = 60_000;
// A quoted domain or host is an RFC 3986 authority (the grammar has checked it); long ones are cut.
const QUOTE_MAX = 100;

/**
 * The check a refused message failed. `malformed`: not the EIP-4361 grammar (a field missing, out of
 * order, repeated or unreadable, an extra line); `nonce`: not issued, expired or already used;
 * `checksum`: the address is not EIP-55; `uri`: the URI's scheme is not http or https, or its
 * authority is not one of SIWE_DOMAINS; `stale`: issued before any unexpired nonce; `high_s`: an EOA
 * signature whose s is in the upper half of the curve order (the malleable twin of a valid one).
 */
export type SiweRefusal =
  | "malformed"
  | "checksum"
  | "version"
  | "domain"
  | "uri"
  | "chain_id"
  | "issued_at"
  | "stale"
  | "expired"
  | "not_before"
  | "signature"
  | "high_s"
  | "nonce";

/**
 * A refused message: the check (for the operator's log) and the sentence the caller gets with its
 * 401. None of them is secret: each names a field of the caller's own message and what this server
 * accepts there, so a misconfigured SIWE_DOMAINS or a skewed clock is found without reading the code.
 */
export interface SiweRefused {
  check: SiweRefusal;
  message: string;
}

/** What the rules need to know about the deployment. */
export interface SiweRules {
  domains: readonly string[];
  chainIds: readonly number[];
}

const quote = (value: string) => (value.length > QUOTE_MAX ? `${value.slice(0, QUOTE_MAX)}...` : value);
const accepted = (values: readonly (string | number)[]) => values.join(", ");

/** The refusals that need no detail of the message: its nonce and its signature. */
export const REFUSED = {
  nonce: {
    check: "nonce",
    message: "The message's nonce is unknown, expired or already used: ask for a new one (POST /auth/nonce)",
  },
  signature: {
    check: "signature",
    message: "The signature is not the message's address's signature of this message",
  },
  highS: {
    check: "high_s",
    message: "The signature is not in its canonical low-s form (EIP-2): sign the message again",
  },
} as const satisfies Record<string, SiweRefused>;

/** The refusal of a text that is not an EIP-4361 message, naming its first wrong line. */
export function malformed(error: SiweSyntaxError): SiweRefused {
  return {
    check: "malformed",
    message: `The message is not in the EIP-4361 format: line ${error.line} should be ${error.expected}`,
  };
}

/** The refusal of a contract wallet's message for a chain the RPC node does not serve. */
export function wrongRpcChain(chainId: number, nodeChainId: number): SiweRefused {
  return {
    check: "chain_id",
    message: `The message's chain ID ${chainId} is not the chain a contract wallet is checked on here (${nodeChainId})`,
  };
}

/**
 * The first rule of the message itself (not its nonce or signature) that `fields` breaks, if any,
 * in the order docs/api.md lists them.
 */
export function findRefusal(rules: SiweRules, fields: SiweMessageFields, now: Date): SiweRefused | undefined {
  const time = now.getTime();
  const refuse = (check: SiweRefusal, message: string): SiweRefused => ({ check, message });
  const checksummed = getAddress(fields.address);
  if (fields.address !== checksummed)
    return refuse("checksum", `The message's address is not in its EIP-55 checksummed form (${checksummed})`);
  if (fields.version !== "1") return refuse("version", "The message's version must be 1");
  // A scheme before the domain, when there is one, is a web origin's.
  if (fields.scheme !== undefined && fields.scheme !== "https" && fields.scheme !== "http")
    return refuse("domain", `The message's scheme ${quote(fields.scheme)} is not http or https`);
  if (!rules.domains.includes(fields.domain))
    return refuse(
      "domain",
      `The message's domain ${quote(fields.domain)} is not one this server accepts (${accepted(rules.domains)})`,
    );
  // A sign-in is for a web origin: a `ftp:` or `javascript:` URI with an allowed authority is not one.
  const uriScheme = fields.uri.slice(0, fields.uri.indexOf(":")).toLowerCase();
  if (uriScheme !== "https" && uriScheme !== "http")
    return refuse("uri", "The message's URI is not an http or https URI");
  if (fields.uriAuthority === undefined)
    return refuse("uri", `The message's URI has no host (this server accepts ${accepted(rules.domains)})`);
  if (!rules.domains.includes(fields.uriAuthority))
    return refuse(
      "uri",
      `The message's URI host ${quote(fields.uriAuthority)} is not one this server accepts (${accepted(rules.domains)})`,
    );
  if (!rules.chainIds.includes(fields.chainId))
    return refuse(
      "chain_id",
      `The message's chain ID ${fields.chainId} is not one this server accepts (${accepted(rules.chainIds)})`,
    );
  if (fields.issuedAt.getTime() > time + CLOCK_SKEW_MS)
    return refuse(
      "issued_at",
      `The message's Issued At is more than ${CLOCK_SKEW_MS / 1000} s in the future: check the device's clock`,
    );
  if (fields.issuedAt.getTime() < time - NONCE_TTL_SECONDS * 1000 - CLOCK_SKEW_MS)
    return refuse(
      "stale",
      `The message's Issued At is older than a nonce lives (${NONCE_TTL_SECONDS / 60} minutes, plus ${CLOCK_SKEW_MS / 1000} s): sign a new message`,
    );
  if (fields.expirationTime && time >= fields.expirationTime.getTime())
    return refuse("expired", `The message expired at ${fields.expirationTime.toISOString()}`);
  if (fields.notBefore && time < fields.notBefore.getTime())
    return refuse(
      "not_before",
      `The message is not yet valid: its Not Before is ${fields.notBefore.toISOString()}`,
    );
  return undefined;
}
