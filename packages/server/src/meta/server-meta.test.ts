import { describe, expect, it } from "vitest";
import { parseEnv } from "../env.js";
import { serverMetaOf } from "./server-meta.js";

describe("the server's public meta", () => {
  it("names no token while payments are off", () => {
    expect(serverMetaOf(parseEnv({}))).toEqual({ payments: null, chainIds: [1] });
  });

  it("names the network, the checksummed token, its decimals, the price and the bounds when payments are on", () => {
    const env = parseEnv({
      PAYMENTS_NETWORK: "eip155:8453",
      PAYMENTS_RPC_URL: "https://mainnet.base.org",
      PAYMENTS_ASSET: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
      PAYMENTS_PAY_TO: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      PAYMENTS_FACILITATOR_URL: "https://facilitator.example/",
      PAYMENTS_CREDITS_PER_TOKEN: "500",
      PAYMENTS_MIN: "0.5",
      PAYMENTS_MAX: "20",
      SIWE_CHAIN_IDS: "8453",
    });
    expect(serverMetaOf(env)).toEqual({
      payments: {
        network: "eip155:8453",
        asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        decimals: 6,
        creditsPerToken: 500,
        min: "0.5",
        max: "20",
      },
      chainIds: [8453],
    });
  });
});
