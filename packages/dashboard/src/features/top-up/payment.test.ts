import { type Hex, recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  authorizationTypedData,
  encodePayment,
  evmChainId,
  type PaymentRequirement,
  transferAuthorization,
} from "./payment";

const requirement: PaymentRequirement = {
  scheme: "exact",
  network: "eip155:31337",
  amount: "5000000",
  asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  payTo: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
};

describe("the top-up's payment", () => {
  it("authorizes exactly the quoted amount to payTo, valid from 0 until maxTimeoutSeconds from now, with a fresh nonce", () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const now = new Date("2030-01-01T00:00:00Z");
    const first = transferAuthorization(requirement, payer.address, now);
    expect(first).toMatchObject({
      from: payer.address,
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      value: "5000000",
      validAfter: "0",
      validBefore: String(now.getTime() / 1000 + 60),
    });
    expect(first.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(transferAuthorization(requirement, payer.address, now).nonce).not.toBe(first.nonce);
  });

  it("signs EIP-3009 typed data under the token's domain on the payment's chain, recoverable to the payer", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const authorization = transferAuthorization(requirement, payer.address);
    const typedData = authorizationTypedData(requirement, authorization);
    expect(typedData.domain).toEqual({
      name: "USD Coin",
      version: "2",
      chainId: 31337,
      verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    });
    const signature = await payer.signTypedData(typedData);
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(payer.address);
  });

  it("encodes an x402 v2 PaymentPayload accepting the requirement unchanged", () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const authorization = transferAuthorization(requirement, payer.address);
    const signature: Hex = `0x${"ab".repeat(65)}`;
    const decoded: unknown = JSON.parse(
      Buffer.from(encodePayment(requirement, authorization, signature), "base64").toString("utf8"),
    );
    expect(decoded).toEqual({ x402Version: 2, accepted: requirement, payload: { authorization, signature } });
  });

  it("reads the chain id of eip155 networks only", () => {
    expect(evmChainId("eip155:8453")).toBe(8453);
    expect(evmChainId("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")).toBeNull();
  });
});
