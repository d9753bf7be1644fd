/** A whole-token amount as people write it: digits, optionally a point and more digits. */
const DECIMAL = /^(\d{1,30})(?:\.(\d{1,36}))?$/;

/**
 * The token's base units for a decimal amount of whole tokens, or null when `text` is not a plain
 * decimal (no sign, exponent or spaces) or has more places than the token's `decimals`.
 * @example toBaseUnits("1.5", 6) // 1500000n; toBaseUnits("0.0000001", 6) // null
 */
export function toBaseUnits(text: string, decimals: number): bigint | null {
  const match = DECIMAL.exec(text);
  if (match === null) return null;
  const whole = match[1] ?? "0";
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) return null;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
}

/**
 * Credits bought by `baseUnits` at `creditsPerToken` credits a whole token, rounded down (a fraction
 * of a credit is not sold).
 * @example creditsFor(1_500_000n, 6, 1000) // 1500
 */
export function creditsFor(baseUnits: bigint, decimals: number, creditsPerToken: number): bigint {
  return (baseUnits * BigInt(creditsPerToken)) / 10n ** BigInt(decimals);
}
