import {
  createPublicClient,
  getAddress,
  type Hex,
  http,
  isAddress,
  isHex,
  type PublicClient,
  verifyMessage,
} from "viem";
import { parseSiweMessage, validateSiweMessage } from "viem/siwe";
import type { Env } from "../env.js";

// Clocks drift: accept an issued-at up to this far in the future.
const CLOCK_SKEW_MS = 60_000;

/** What the signature check needs to know about the deployment. */
export interface SiweSettings {
  domains: readonly string[];
  chainIds: readonly number[];
  /** Set when RPC_URL is: verifies ERC-1271 / ERC-6492 contract wallets too. */
  publicClient: PublicClient | null;
}

/** Builds the SIWE settings from env, including an RPC client when RPC_URL is set. */
export function createSiweSettings(env: Env): SiweSettings {
  return {
    domains: env.SIWE_DOMAINS,
    chainIds: env.SIWE_CHAIN_IDS,
    publicClient: env.RPC_URL === undefined ? null : createPublicClient({ transport: http(env.RPC_URL) }),
  };
}

/**
 * The check a refused message failed, for the operator's log (never for the caller, who gets one
 * generic 401). `malformed`: a required field is missing or unreadable; `nonce` is decided later,
 * when the caller consumes it.
 */
export type SiweRefusal =
  | "malformed"
  | "version"
  | "domain"
  | "chain_id"
  | "issued_at"
  | "expired"
  | "not_before"
  | "signature"
  | "nonce";

/** The outcome of {@link checkSiweMessage}: the signer, or the check that failed. */
export type SiweCheck =
  | {
      ok: true;
      address: `0x${string}`;
      /** Still to be consumed by the caller, atomically. */
      nonce: string;
      /** The message's `Expiration Time`, when it has one: a session must not outlive it. */
      expirationTime: Date | undefined;
    }
  | { ok: false; check: SiweRefusal };

const isValidDate = (date: Date | undefined): boolean => date === undefined || !Number.isNaN(date.getTime());

/**
 * Checks an EIP-4361 message strictly: required fields, version, domain, chain id, time window and
 * signature, in that order (the cheap checks first; the signature may call RPC_URL). Everything but
 * the nonce, which the caller consumes atomically.
 */
export async function checkSiweMessage(
  settings: SiweSettings,
  message: string,
  signature: string,
  now = new Date(),
): Promise<SiweCheck> {
  const refuse = (check: SiweRefusal): SiweCheck => ({ ok: false, check });
  if (!isHex(signature, { strict: true })) return refuse("signature");
  const fields = parseSiweMessage(message);
  const { address, chainId, domain, nonce, uri, version, issuedAt, expirationTime, notBefore } = fields;
  if (!address || !isAddress(address, { strict: false }) || !nonce || !uri || !domain)
    return refuse("malformed");
  if (!issuedAt || !isValidDate(issuedAt) || !isValidDate(expirationTime) || !isValidDate(notBefore)) {
    return refuse("malformed");
  }
  if (version !== "1") return refuse("version");
  if (!settings.domains.includes(domain)) return refuse("domain");
  if (chainId === undefined || !settings.chainIds.includes(chainId)) return refuse("chain_id");
  if (issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) return refuse("issued_at");
  if (expirationTime && now >= expirationTime) return refuse("expired");
  if (notBefore && now < notBefore) return refuse("not_before");
  // viem's own rules on top (nonce alphabet and length among them).
  if (!validateSiweMessage({ message: fields, domain, nonce, time: now })) return refuse("malformed");
  if (!(await isSignatureValid(settings, address, message, signature))) return refuse("signature");
  return { ok: true, address: getAddress(address), nonce, expirationTime };
}

async function isSignatureValid(
  settings: SiweSettings,
  address: `0x${string}`,
  message: string,
  signature: Hex,
): Promise<boolean> {
  try {
    if (settings.publicClient)
      return await settings.publicClient.verifyMessage({ address, message, signature });
    return await verifyMessage({ address, message, signature });
  } catch {
    return false;
  }
}
