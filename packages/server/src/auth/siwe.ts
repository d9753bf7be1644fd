import { TRPCError } from "@trpc/server";
import type { Logger } from "pino";
import {
  BaseError,
  createPublicClient,
  type Hex,
  HttpRequestError,
  hashMessage,
  http,
  isErc6492Signature,
  isHex,
  LimitExceededRpcError,
  type PublicClient,
  parseAbi,
  ResourceUnavailableRpcError,
  TimeoutError,
  verifyMessage,
} from "viem";
import type { Env } from "../env.js";
import { hasHighS } from "./high-s.js";
import { parseSiweMessage, type SiweMessageFields } from "./siwe-message.js";
import { findRefusal, malformed, REFUSED, type SiweRefused, wrongRpcChain } from "./siwe-rules.js";

// An RPC call answers within the request's 5 s deadline or counts as unreachable.
const RPC_TIMEOUT_MS = 4_000;
// ERC-1271: what isValidSignature returns for a valid signature.
const ERC1271_MAGIC_VALUE = "0x1626ba7e";
const ERC1271_ABI = parseAbi([
  "function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4 magicValue)",
]);

/** The message of the 503 a contract-wallet sign-in gets while RPC_URL does not answer. */
export const RPC_UNAVAILABLE =
  "The blockchain node is unavailable, so a contract wallet cannot be checked; retry shortly";

/** What the signature check needs to know about the deployment. */
export interface SiweSettings {
  domains: readonly string[];
  chainIds: readonly number[];
  /** Set when RPC_URL is: verifies ERC-1271 / ERC-6492 contract wallets too. */
  publicClient: PublicClient | null;
  /** Where an unreachable RPC_URL is reported. */
  logger: Pick<Logger, "warn">;
}

/** Builds the SIWE settings from env, including an RPC client when RPC_URL is set. */
export function createSiweSettings(env: Env, logger: Pick<Logger, "warn">): SiweSettings {
  return {
    domains: env.SIWE_DOMAINS,
    chainIds: env.SIWE_CHAIN_IDS,
    publicClient:
      env.RPC_URL === undefined
        ? null
        : createPublicClient({ transport: http(env.RPC_URL, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) }),
    logger,
  };
}

/** The outcome of {@link checkSiweMessage}: the signer, or the check that failed. */
export type SiweCheck =
  | {
      ok: true;
      address: `0x${string}`;
      /** The message's `Expiration Time`, when it has one: a session must not outlive it. */
      expirationTime: Date | undefined;
    }
  | (SiweRefused & {
      ok: false;
      /** The message's nonce when the message was refused before it was claimed (still usable if it was). */
      nonce?: string;
    });

/**
 * Consumes a message's nonce atomically: true when it was issued, unexpired and unused (and is now
 * used), false otherwise.
 */
export type ClaimNonce = (nonce: string) => Promise<boolean>;

/**
 * Checks an EIP-4361 message strictly: its grammar (an anchored parser, see siwe-message.ts), the
 * EIP-55 address, version, domain and URI, chain id and time window (no I/O; a refusal here leaves
 * the nonce usable), then its nonce (consumed through `claimNonce`, so an invented or used nonce
 * costs no signature work and no RPC call), and last the signature (an EOA's locally; a contract
 * wallet's calls RPC_URL). A wrong signature has spent the nonce: the caller asks for a new one.
 * `requestId` goes on the warning logged when RPC_URL does not answer.
 * @throws TRPCError SERVICE_UNAVAILABLE when a contract wallet must be checked and RPC_URL does not answer.
 */
export async function checkSiweMessage(
  settings: SiweSettings,
  message: string,
  signature: string,
  claimNonce: ClaimNonce,
  now = new Date(),
  requestId?: string,
): Promise<SiweCheck> {
  const refuse = (refused: SiweRefused): SiweCheck => ({ ok: false, ...refused });
  if (!isHex(signature, { strict: true })) return refuse(REFUSED.signature);
  const parsed = parseSiweMessage(message);
  if (!parsed.ok) return refuse(malformed(parsed.error));
  const { fields } = parsed;
  const refusal = findRefusal(settings, fields, now);
  // Refused before its nonce is claimed: the nonce stays usable, and the caller learns which it was.
  if (refusal !== undefined) return { ok: false, ...refusal, nonce: fields.nonce };
  if (!(await claimNonce(fields.nonce))) return refuse(REFUSED.nonce);
  const signer = await checkSignature(settings, fields, message, signature, requestId);
  if (signer !== "valid") return refuse(signer);
  return { ok: true, address: fields.address, expirationTime: fields.expirationTime };
}

/**
 * An EOA's signature is checked locally (no RPC call). Otherwise, with RPC_URL set, the address may
 * be a contract wallet on the message's chain: deployed (ERC-1271 `isValidSignature`) or not yet
 * (an ERC-6492 wrapped signature, checked by viem's deployless validator).
 */
async function checkSignature(
  settings: SiweSettings,
  fields: SiweMessageFields,
  message: string,
  signature: Hex,
  requestId: string | undefined,
): Promise<"valid" | SiweRefused> {
  const { address } = fields;
  const isEoaSignature = await verifyMessage({ address, message, signature }).catch(() => false);
  // ECDSA accepts (r, s) and (r, n - s) alike; only the low-s form is canonical (EIP-2), so the
  // twin an onlooker can derive from a seen signature is refused. A contract wallet's signature is
  // its contract's business (ERC-1271, ERC-6492), whatever its bytes.
  if (isEoaSignature) return hasHighS(signature) ? REFUSED.highS : "valid";
  const client = settings.publicClient;
  if (client === null) return REFUSED.signature;
  try {
    // EIP-4361: a contract account is resolved on the message's chain, so the node must serve it.
    const nodeChainId = await client.getChainId();
    if (nodeChainId !== fields.chainId) return wrongRpcChain(fields.chainId, nodeChainId);
    const hash = hashMessage(message);
    const code = await client.getCode({ address });
    if (code === undefined || code === "0x") {
      if (!isErc6492Signature(signature)) return REFUSED.signature;
      return (await client.verifyHash({ address, hash, signature })) ? "valid" : REFUSED.signature;
    }
    const magic = await client.readContract({
      address,
      abi: ERC1271_ABI,
      functionName: "isValidSignature",
      args: [hash, signature],
    });
    return magic.toLowerCase() === ERC1271_MAGIC_VALUE ? "valid" : REFUSED.signature;
  } catch (error) {
    if (!isRpcUnreachable(error)) return REFUSED.signature;
    // Only the error's class: viem's messages quote the URL, which may hold the node's API key.
    settings.logger.warn(
      { rpcError: rootCauseName(error), reqId: requestId },
      "sign-in: RPC_URL did not answer, a contract-wallet signature could not be checked",
    );
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: RPC_UNAVAILABLE });
  }
}

/** True when `error` says the node could not be asked (network, timeout, HTTP error, rate limit), not "invalid". */
function isRpcUnreachable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return (
    error.walk(
      (cause) =>
        cause instanceof HttpRequestError ||
        cause instanceof TimeoutError ||
        cause instanceof LimitExceededRpcError ||
        cause instanceof ResourceUnavailableRpcError,
    ) !== null
  );
}

/** The code (ECONNREFUSED...) or class name of the innermost error of a `cause` chain. */
function rootCauseName(error: unknown): string {
  let inner: unknown = error;
  for (let depth = 0; depth < 8 && inner instanceof Error && inner.cause instanceof Error; depth++)
    inner = inner.cause;
  if (!(inner instanceof Error)) return "unknown";
  const code = Reflect.get(inner, "code");
  return typeof code === "string" ? code : inner.name;
}
