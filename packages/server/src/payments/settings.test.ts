import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../env.js";
import { paymentSettingsOf } from "./settings.js";

const PAY_TO = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const ASSET = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const SECRET_KEY = `0x${"ab".repeat(32)}`;
const complete = {
  PAYMENTS_NETWORK: "eip155:8453",
  PAYMENTS_RPC_URL: "https://mainnet.base.org",
  PAYMENTS_ASSET: ASSET,
  PAYMENTS_PAY_TO: PAY_TO,
  PAYMENTS_FACILITATOR_URL: "https://facilitator.example/",
};

function failure(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
  throw new Error("parseEnv accepted it");
}

describe("payment settings", () => {
  it("leave payments off while PAYMENTS_NETWORK is unset, whatever else is set", () => {
    expect(paymentSettingsOf(parseEnv({ PAYMENTS_PAY_TO: PAY_TO }))).toBeNull();
  });

  it("apply the documented defaults once payments are on", () => {
    const settings = paymentSettingsOf(parseEnv(complete));
    expect(settings).toMatchObject({
      network: "eip155:8453",
      chainId: 8453,
      assetName: "USD Coin",
      assetVersion: "2",
      decimals: 6,
      creditsPerToken: 1000,
      min: 1_000_000n,
      max: 1_000_000_000n,
      confirmations: 1,
      settlement: { kind: "url", url: "https://facilitator.example" },
    });
  });

  it("name every missing setting on a line of its own", () => {
    const message = failure({ PAYMENTS_NETWORK: "eip155:8453" });
    const lines = message.split("\n").slice(1);
    expect(lines).toEqual([
      "  PAYMENTS_RPC_URL: is required when PAYMENTS_NETWORK is set",
      "  PAYMENTS_ASSET: is required when PAYMENTS_NETWORK is set",
      "  PAYMENTS_PAY_TO: is required when PAYMENTS_NETWORK is set",
      "  PAYMENTS_FACILITATOR_URL: set exactly one of PAYMENTS_FACILITATOR_URL and PAYMENTS_SETTLER_PRIVATE_KEY",
    ]);
  });

  it("take exactly one way to settle", () => {
    expect(failure({ ...complete, PAYMENTS_SETTLER_PRIVATE_KEY: SECRET_KEY })).toContain(
      "set exactly one of PAYMENTS_FACILITATOR_URL and PAYMENTS_SETTLER_PRIVATE_KEY",
    );
    const { PAYMENTS_FACILITATOR_URL: _, ...withoutUrl } = complete;
    const settings = paymentSettingsOf(parseEnv({ ...withoutUrl, PAYMENTS_SETTLER_PRIVATE_KEY: SECRET_KEY }));
    expect(settings?.settlement).toEqual({ kind: "in-process", privateKey: SECRET_KEY });
  });

  it("refuse a bad private key without quoting it", () => {
    const { PAYMENTS_FACILITATOR_URL: _, ...withoutUrl } = complete;
    const bad = `0x${"cd".repeat(31)}`;
    const message = failure({ ...withoutUrl, PAYMENTS_SETTLER_PRIVATE_KEY: bad });
    expect(message).toContain("PAYMENTS_SETTLER_PRIVATE_KEY: must be a 0x-prefixed 32-byte hex private key");
    expect(message).not.toContain(bad.slice(2));
  });

  it("check the network, addresses, bounds and confirmations", () => {
    const message = failure({
      ...complete,
      PAYMENTS_NETWORK: "solana:mainnet",
      PAYMENTS_PAY_TO: "0x123",
      PAYMENTS_CONFIRMATIONS: "0",
    });
    expect(message).toContain("PAYMENTS_NETWORK: must be a CAIP-2 EVM chain id such as eip155:8453");
    expect(message).toContain("PAYMENTS_PAY_TO: must be a 0x-prefixed 20-byte hex address");
    expect(message).toContain("PAYMENTS_CONFIRMATIONS");
    expect(failure({ ...complete, PAYMENTS_MAX: "1.0000001" })).toContain(
      "PAYMENTS_MAX: must be a decimal number of whole tokens with at most 6 places",
    );
    expect(failure({ ...complete, PAYMENTS_MIN: "10", PAYMENTS_MAX: "5" })).toContain(
      "PAYMENTS_MAX: must be at least PAYMENTS_MIN",
    );
  });
});
