import type { BrowserContext } from "playwright-core";
import { type Hex, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { z } from "zod";

/** A wallet the page finds through EIP-6963, signing in Node with a viem local account. */
export interface TestWallet {
  address: `0x${string}`;
  /** Every message the page had signed with `personal_sign`, in order (decoded to text). */
  signed: string[];
  /** The primary type of every typed data the page had signed with `eth_signTypedData_v4`, in order. */
  signedTypedData: string[];
  /** Makes the next signature request (message or typed data) fail as a user's "Reject" does (4001). */
  refuseNextSignature(): void;
}

const SIGN_FUNCTION = "__keyportTestWalletSign";
const SIGN_TYPED_DATA_FUNCTION = "__keyportTestWalletSignTypedData";
const RPC_FUNCTION = "__keyportTestWalletRpc";

/** What the Node side answers a signature request: a signature, or the user's refusal. */
type SignAnswer = { signature: Hex } | { refused: true };

interface WalletPageOptions {
  address: string;
  signFunction: string;
  signTypedDataFunction: string;
  rpcFunction: string;
  forwardedReads: readonly string[];
  chainId: number;
}

// The chain reads a real wallet sends to its node (balances, calls); anything else it answers itself.
const FORWARDED_READS = ["eth_call", "eth_blockNumber", "eth_getBalance", "eth_estimateGas"];

/** How the test wallet starts. */
export interface TestWalletOptions {
  /** The chain it is on (default 1); `wallet_switchEthereumChain` moves it, as a real wallet would. */
  chainId?: number;
  /** The account's key, to sign in as one wallet from several contexts (a new random one by default). */
  privateKey?: Hex;
  /**
   * The wallet's node: chain reads (`eth_call`, `eth_getBalance`, ...) go there from Node, as a real
   * wallet sends them to its own RPC. Without it the wallet refuses them.
   */
  rpcUrl?: string;
}

// Runs in the page before its own scripts (serialised by Playwright: no closure over Node values).
function installWallet({
  address,
  signFunction,
  signTypedDataFunction,
  rpcFunction,
  forwardedReads,
  chainId,
}: WalletPageOptions): void {
  type Listener = (...args: unknown[]) => void;
  const listeners = new Map<string, Set<Listener>>();
  const fail = (code: number, message: string) => Object.assign(new Error(message), { code });
  const sign = Reflect.get(window, signFunction);
  const signTypedData = Reflect.get(window, signTypedDataFunction);
  const rpc = Reflect.get(window, rpcFunction);
  // The Node side answers `{ signature }` or `{ refused: true }` (a thrown error would lose its code).
  const signatureOf = (answer: unknown): unknown => {
    if (typeof answer === "object" && answer !== null && "signature" in answer) return answer.signature;
    throw fail(4001, "User rejected the request.");
  };
  let chain = chainId;
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...args);
  };
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return [address];
        case "eth_chainId":
          return `0x${chain.toString(16)}`;
        case "net_version":
          return String(chain);
        case "wallet_switchEthereumChain": {
          const [target] = Array.isArray(params) ? params : [];
          const hex: unknown =
            typeof target === "object" && target !== null ? Reflect.get(target, "chainId") : undefined;
          if (typeof hex !== "string" || !/^0x[0-9a-f]+$/i.test(hex)) throw fail(-32602, "Invalid params");
          chain = Number.parseInt(hex.slice(2), 16);
          emit("chainChanged", hex);
          return null;
        }
        case "personal_sign": {
          const [message] = Array.isArray(params) ? params : [];
          if (typeof sign !== "function" || typeof message !== "string") throw fail(-32602, "Invalid params");
          return signatureOf(await sign(message));
        }
        case "eth_signTypedData_v4": {
          const [signer, typedData] = Array.isArray(params) ? params : [];
          if (typeof signTypedData !== "function" || typeof typedData !== "string") {
            throw fail(-32602, "Invalid params");
          }
          if (typeof signer !== "string" || signer.toLowerCase() !== address.toLowerCase()) {
            throw fail(4100, "The requested account is not this wallet's");
          }
          return signatureOf(await signTypedData(typedData, chain));
        }
        case "wallet_requestPermissions":
        case "wallet_getPermissions":
          return [{ parentCapability: "eth_accounts" }];
        case "wallet_revokePermissions":
          return null;
        default: {
          if (forwardedReads.includes(method) && typeof rpc === "function") {
            const answer: unknown = await rpc(method, params ?? []);
            if (typeof answer === "object" && answer !== null && "result" in answer) return answer.result;
            throw fail(-32603, "The wallet's node refused the request");
          }
          throw fail(4200, `The test wallet does not support ${method}`);
        }
      }
    },
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(event, set);
      return provider;
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };
  const icon =
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'%3E%3Crect width='8' height='8' fill='%23456'/%3E%3C/svg%3E";
  const detail = Object.freeze({
    info: Object.freeze({
      uuid: "7c1e0f3a-5b7d-4c2e-9a61-3f0d2b8e4a10",
      name: "Test Wallet",
      icon,
      rdns: "dev.keyport.test-wallet",
    }),
    provider,
  });
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
}

/**
 * Gives every page of `context` the test wallet: an EIP-1193 provider announced through EIP-6963 whose
 * `personal_sign` calls back into Node, where a viem local account signs (the key never enters the page).
 */
export async function installTestWallet(
  context: BrowserContext,
  options: TestWalletOptions = {},
): Promise<TestWallet> {
  const account = privateKeyToAccount(options.privateKey ?? generatePrivateKey());
  const signed: string[] = [];
  const signedTypedData: string[] = [];
  let refuseNext = false;
  const refused = (): boolean => {
    const refuse = refuseNext;
    refuseNext = false;
    return refuse;
  };
  await context.exposeFunction(SIGN_FUNCTION, async (message: unknown): Promise<SignAnswer> => {
    if (typeof message !== "string" || !isHex(message)) throw new Error("personal_sign takes hex data");
    if (refused()) return { refused: true };
    signed.push(Buffer.from(message.slice(2), "hex").toString("utf8"));
    return { signature: await account.signMessage({ message: { raw: message } }) };
  });
  await context.exposeFunction(
    SIGN_TYPED_DATA_FUNCTION,
    async (json: unknown, walletChainId: unknown): Promise<SignAnswer> => {
      if (typeof json !== "string") throw new Error("eth_signTypedData_v4 takes JSON");
      const typedData = typedDataSchema.parse(JSON.parse(json));
      // A real wallet refuses to sign for a chain other than the one it is on (EIP-712 domain chainId).
      if (typedData.domain.chainId !== undefined && typedData.domain.chainId !== walletChainId) {
        throw new Error("The typed data's chainId is not the wallet's chain");
      }
      if (refused()) return { refused: true };
      signedTypedData.push(typedData.primaryType);
      const { EIP712Domain: _domainType, ...types } = typedData.types;
      return {
        signature: await account.signTypedData({
          domain: typedData.domain,
          types,
          primaryType: typedData.primaryType,
          message: typedData.message,
        }),
      };
    },
  );
  const rpcUrl = options.rpcUrl;
  await context.exposeFunction(RPC_FUNCTION, async (method: unknown, params: unknown): Promise<unknown> => {
    if (rpcUrl === undefined || typeof method !== "string" || !FORWARDED_READS.includes(method)) return {};
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return response.json();
  });
  await context.addInitScript(installWallet, {
    address: account.address,
    signFunction: SIGN_FUNCTION,
    signTypedDataFunction: SIGN_TYPED_DATA_FUNCTION,
    rpcFunction: RPC_FUNCTION,
    forwardedReads: FORWARDED_READS,
    chainId: options.chainId ?? 1,
  });
  return {
    address: account.address,
    signed,
    signedTypedData,
    refuseNextSignature: () => {
      refuseNext = true;
    },
  };
}

// EIP-712 typed data as `eth_signTypedData_v4` carries it (viem serialises bigints as decimal strings).
const typedDataSchema = z.object({
  domain: z.object({
    name: z.string().optional(),
    version: z.string().optional(),
    chainId: z.coerce.number().int().optional(),
    verifyingContract: z.custom<Hex>((value) => typeof value === "string" && isHex(value)).optional(),
  }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
});
