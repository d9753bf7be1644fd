import {
  concat,
  hexToBigInt,
  numberToHex,
  parseSignature,
  serializeCompactSignature,
  serializeSignature,
  signatureToCompactSignature,
  slice,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { hasHighS } from "./high-s.js";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const account = privateKeyToAccount(generatePrivateKey());

describe("hasHighS", () => {
  it("tells a wallet's low-s signature from its high-s twin, in the 65-byte form", async () => {
    const low = parseSignature(await account.signMessage({ message: "hello" }));
    const high = {
      r: low.r,
      s: numberToHex(SECP256K1_N - hexToBigInt(low.s), { size: 32 }),
      yParity: 1 - (low.yParity ?? 0),
    };
    expect(hasHighS(serializeSignature(low))).toBe(false);
    expect(hasHighS(serializeSignature(high))).toBe(true);
  });

  it("reads s under the parity bit in EIP-2098's 64-byte form", async () => {
    const low = parseSignature(await account.signMessage({ message: "hello" }));
    const compact = serializeCompactSignature(signatureToCompactSignature(low));
    expect(hasHighS(compact)).toBe(false);
    // The parity bit on top is not part of s: n/2 + 1 under it is high, n/2 under it is not.
    const highS = (SECP256K1_N / 2n + 1n) | (1n << 255n);
    expect(hasHighS(concat([slice(compact, 0, 32), numberToHex(highS, { size: 32 })]))).toBe(true);
    expect(
      hasHighS(concat([slice(compact, 0, 32), numberToHex((SECP256K1_N / 2n) | (1n << 255n), { size: 32 })])),
    ).toBe(false);
  });

  it("says false for anything that is not a plain ECDSA signature", () => {
    expect(hasHighS("0x")).toBe(false);
    expect(hasHighS(`0x${"ff".repeat(66)}`)).toBe(false);
  });
});
