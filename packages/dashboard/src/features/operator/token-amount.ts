import { shortAddress } from "../../lib/format";
import { chainName } from "../session/chains";

/**
 * An exact token amount from its base units: `formatBaseUnits("5250000", 6)` is "5.25". Integer
 * arithmetic on the decimal string (BigInt), so sums of any size stay exact; grouped as the locale does.
 */
export function formatBaseUnits(baseUnits: string, decimals: number): string {
  if (!/^-?\d+$/.test(baseUnits)) return baseUnits;
  const negative = baseUnits.startsWith("-");
  const digits = (negative ? baseUnits.slice(1) : baseUnits).padStart(decimals + 1, "0");
  const whole = BigInt(digits.slice(0, digits.length - decimals)).toLocaleString("en-US");
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/** A CAIP-2 network in words: `eip155:8453` is "Base", an unknown one stays as it is. */
export function networkWords(network: string): string {
  const match = /^eip155:(\d+)$/.exec(network);
  return match?.[1] === undefined ? network : chainName(Number(match[1]));
}

/** What the server's payment token is, as `/api/meta` names it (undefined: payments off or unknown). */
export interface PaymentToken {
  network: string;
  asset: string;
  decimals: number;
}

/**
 * A (network, asset) sum in words: "5.25 USDC on Base" when it is the server's payment token (whose
 * decimals `/api/meta` gives), else the base units and the asset's address.
 */
export function amountWords(
  total: { network: string; asset: string; baseUnits: string },
  token: PaymentToken | undefined,
): string {
  const known =
    token !== undefined &&
    token.network === total.network &&
    token.asset.toLowerCase() === total.asset.toLowerCase();
  if (known)
    return `${formatBaseUnits(total.baseUnits, token.decimals)} USDC on ${networkWords(total.network)}`;
  return `${total.baseUnits} base units of ${shortAddress(total.asset)} on ${networkWords(total.network)}`;
}

/**
 * One payment's amount in words: "5 USDC on Base" in the server's payment token, else the whole-token
 * amount with the asset's short address ("5 of 0x8335…2913 on Base").
 */
export function paymentAmountWords(
  payment: { network: string; asset: string; amount: string },
  token: PaymentToken | undefined,
): string {
  const known =
    token !== undefined &&
    token.network === payment.network &&
    token.asset.toLowerCase() === payment.asset.toLowerCase();
  const asset = known ? "USDC" : `of ${shortAddress(payment.asset)}`;
  return `${payment.amount} ${asset} on ${networkWords(payment.network)}`;
}
