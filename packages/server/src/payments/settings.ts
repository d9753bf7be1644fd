import { type Address, getAddress, type Hex } from "viem";
import type { Env } from "../env.js";
import { toBaseUnits } from "./amount.js";

/** The seconds a payer's authorization and Keyport's wait for its settlement may take. */
export const MAX_TIMEOUT_SECONDS = 60;

/** How a payment is settled: by an x402 facilitator over HTTP, or in this process with this key. */
export type SettlementMode = { kind: "url"; url: string } | { kind: "in-process"; privateKey: Hex };

/** The payment settings when payments are on (docs/payments.md). */
export interface PaymentSettings {
  /** CAIP-2, e.g. `eip155:8453`. */
  network: `eip155:${string}`;
  chainId: number;
  rpcUrl: string;
  asset: Address;
  assetName: string;
  assetVersion: string;
  decimals: number;
  payTo: Address;
  creditsPerToken: number;
  /** Bounds of one top-up, in base units. */
  min: bigint;
  max: bigint;
  /** The bounds as the operator wrote them (whole tokens), for messages. */
  minText: string;
  maxText: string;
  settlement: SettlementMode;
  confirmations: number;
}

const isHex = (value: string): value is Hex => /^0x[0-9a-fA-F]*$/.test(value);

/**
 * The payment settings of validated `env`, or null when PAYMENTS_NETWORK is unset (payments off).
 * env.ts has checked every rule; a setting missing here means `env` did not come from `parseEnv`.
 */
export function paymentSettingsOf(env: Env): PaymentSettings | null {
  const network = env.PAYMENTS_NETWORK;
  if (network === undefined) return null;
  const { PAYMENTS_RPC_URL: rpcUrl, PAYMENTS_ASSET: asset, PAYMENTS_PAY_TO: payTo } = env;
  const min = toBaseUnits(env.PAYMENTS_MIN, env.PAYMENTS_ASSET_DECIMALS);
  const max = toBaseUnits(env.PAYMENTS_MAX, env.PAYMENTS_ASSET_DECIMALS);
  const key = env.PAYMENTS_SETTLER_PRIVATE_KEY;
  const url = env.PAYMENTS_FACILITATOR_URL;
  const settlement: SettlementMode | null =
    url !== undefined
      ? { kind: "url", url: url.replace(/\/+$/, "") }
      : key !== undefined && isHex(key)
        ? { kind: "in-process", privateKey: key }
        : null;
  const chainId = Number(network.slice("eip155:".length));
  if (rpcUrl === undefined || asset === undefined || payTo === undefined || min === null || max === null) {
    throw new Error("payment settings were not validated by parseEnv");
  }
  if (settlement === null) throw new Error("payment settings were not validated by parseEnv");
  return {
    network: `eip155:${chainId}`,
    chainId,
    rpcUrl,
    asset: getAddress(asset),
    assetName: env.PAYMENTS_ASSET_NAME,
    assetVersion: env.PAYMENTS_ASSET_VERSION,
    decimals: env.PAYMENTS_ASSET_DECIMALS,
    payTo: getAddress(payTo),
    creditsPerToken: env.PAYMENTS_CREDITS_PER_TOKEN,
    min,
    max,
    minText: env.PAYMENTS_MIN,
    maxText: env.PAYMENTS_MAX,
    settlement,
    confirmations: env.PAYMENTS_CONFIRMATIONS,
  };
}
