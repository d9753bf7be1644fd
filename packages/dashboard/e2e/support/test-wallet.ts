import type { BrowserContext } from "playwright-core";
import { type Hex, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/** A wallet the page finds through EIP-6963, signing in Node with a viem local account. */
export interface TestWallet {
  address: `0x${string}`;
  /** Every message the page had signed with `personal_sign`, in order (decoded to text). */
  signed: string[];
}

const SIGN_FUNCTION = "__keyportTestWalletSign";

interface WalletPageOptions {
  address: string;
  signFunction: string;
  chainId: number;
}

/** How the test wallet starts. */
export interface TestWalletOptions {
  /** The chain it is on (default 1); `wallet_switchEthereumChain` moves it, as a real wallet would. */
  chainId?: number;
  /** The account's key, to sign in as one wallet from several contexts (a new random one by default). */
  privateKey?: Hex;
}

// Runs in the page before its own scripts (serialised by Playwright: no closure over Node values).
function installWallet({ address, signFunction, chainId }: WalletPageOptions): void {
  type Listener = (...args: unknown[]) => void;
  const listeners = new Map<string, Set<Listener>>();
  const fail = (code: number, message: string) => Object.assign(new Error(message), { code });
  const sign = Reflect.get(window, signFunction);
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
          return sign(message);
        }
        case "wallet_requestPermissions":
        case "wallet_getPermissions":
          return [{ parentCapability: "eth_accounts" }];
        case "wallet_revokePermissions":
          return null;
        default:
          throw fail(4200, `The test wallet does not support ${method}`);
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
  await context.exposeFunction(SIGN_FUNCTION, async (message: unknown): Promise<Hex> => {
    if (typeof message !== "string" || !isHex(message)) throw new Error("personal_sign takes hex data");
    signed.push(Buffer.from(message.slice(2), "hex").toString("utf8"));
    return account.signMessage({ message: { raw: message } });
  });
  await context.addInitScript(installWallet, {
    address: account.address,
    signFunction: SIGN_FUNCTION,
    chainId: options.chainId ?? 1,
  });
  return { address: account.address, signed };
}
