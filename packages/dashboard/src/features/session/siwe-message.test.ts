import { parseSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { buildSignInMessage } from "./siwe-message";

const now = new Date("2030-01-01T12:00:00.000Z");

describe("buildSignInMessage", () => {
  it("signs for the page's host and origin, with a 24 h expiry and the server's nonce", () => {
    const message = buildSignInMessage({
      address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
      chainId: 137,
      nonce: "abcdefgh12345678abcdefgh",
      host: "localhost:3001",
      origin: "http://localhost:3001",
      now,
    });
    expect(message.startsWith("localhost:3001 wants you to sign in with your Ethereum account:")).toBe(true);
    expect(parseSiweMessage(message)).toMatchObject({
      address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      chainId: 137,
      domain: "localhost:3001",
      uri: "http://localhost:3001",
      version: "1",
      nonce: "abcdefgh12345678abcdefgh",
      issuedAt: now,
      expirationTime: new Date("2030-01-02T12:00:00.000Z"),
    });
  });

  it("uses chain 1 when the wallet reports none", () => {
    const message = buildSignInMessage({
      address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      chainId: undefined,
      nonce: "abcdefgh12345678",
      host: "localhost:3001",
      origin: "http://localhost:3001",
      now,
    });
    expect(parseSiweMessage(message).chainId).toBe(1);
  });
});
