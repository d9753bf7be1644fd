import { type Hex, hexToBigInt, size, slice } from "viem";

// secp256k1's group order n, and the bound EIP-2 puts on a canonical s.
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N / 2n;
// EIP-2098's compact form keeps the y parity in the top bit of its second word.
const S_MASK = (1n << 255n) - 1n;

/**
 * Whether an ECDSA signature (65 bytes `r‖s‖v`, or EIP-2098's 64 bytes `r‖yParityAndS`) has its s
 * above n/2: the malleable twin of the low-s signature any wallet produces. Any other length is
 * no plain ECDSA signature and gets false.
 * @example hasHighS(await account.signMessage({ message })) // false: wallets sign low-s
 */
export function hasHighS(signature: Hex): boolean {
  const bytes = size(signature);
  if (bytes !== 65 && bytes !== 64) return false;
  const word = hexToBigInt(slice(signature, 32, 64));
  return (bytes === 64 ? word & S_MASK : word) > HALF_N;
}
