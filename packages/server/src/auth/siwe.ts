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

/** A message that passed every check except the nonce, which the caller consumes atomically. */
export interface CheckedSiweMessage {
  address: `0x${string}`;
  nonce: string;
}

/**
 * Checks an EIP-4361 message strictly: required fields, version, domain, chain id, time window and
 * signature. Returns null on any failure (the caller answers a generic 401).
 */
export async function checkSiweMessage(
  settings: SiweSettings,
  message: string,
  signature: string,
  now = new Date(),
): Promise<CheckedSiweMessage | null> {
  if (!isHex(signature, { strict: true })) return null;
  const fields = parseSiweMessage(message);
  const { address, chainId, domain, nonce, uri, version, issuedAt } = fields;
  if (!address || !isAddress(address, { strict: false }) || !nonce || !uri || version !== "1") return null;
  if (!domain || !settings.domains.includes(domain)) return null;
  if (chainId === undefined || !settings.chainIds.includes(chainId)) return null;
  if (!issuedAt || Number.isNaN(issuedAt.getTime()) || issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    return null;
  }
  // validateSiweMessage checks expirationTime and notBefore against `time`.
  if (!validateSiweMessage({ message: fields, domain, nonce, time: now })) return null;
  if (!(await isSignatureValid(settings, address, message, signature))) return null;
  return { address: getAddress(address), nonce };
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
