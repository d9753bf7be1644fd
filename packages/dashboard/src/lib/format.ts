import { getAddress, isAddress } from "viem";

/**
 * An address in its EIP-55 checksummed form, the one casing the page shows (the server answers
 * checksummed; a payer in a stored event may be lower case). Anything else is returned as it is.
 */
export function checksummed(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address;
}

/** `0x5aAe…eAed`: enough of an address to recognise it, short enough for a header; checksummed. */
export function shortAddress(address: string): string {
  const shown = checksummed(address);
  return shown.length <= 12 ? shown : `${shown.slice(0, 6)}…${shown.slice(-4)}`;
}
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** A date and time in the user's locale, or "never" / a given placeholder for null. */
export function formatDateTime(value: Date | null, empty = "never"): string {
  return value === null ? empty : dateTime.format(value);
}

/** A date in the user's locale. */
export function formatDate(value: Date): string {
  return dateOnly.format(value);
}

/** A whole count with grouping: `12,345`. */
export function formatCount(value: number): string {
  return value.toLocaleString();
}

/** A price in `currency`, with more decimals for small prices so sub-cent coins stay readable. */
export function formatPrice(value: number | null | undefined, currency: string): string {
  if (value === null || value === undefined) return "–";
  const digits = Math.abs(value) >= 1 ? 2 : Math.abs(value) >= 0.01 ? 4 : 8;
  return formatMoney(value, currency, { maximumFractionDigits: digits });
}

/** A large amount in `currency`, compact: `$1.2T`. */
export function formatCompactMoney(value: number | null | undefined, currency: string): string {
  if (value === null || value === undefined) return "–";
  return formatMoney(value, currency, { notation: "compact", maximumFractionDigits: 2 });
}

/** A signed percentage: `+1.23 %`. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  const sign = value > 0 ? "+" : "";
  return `${sign}${value.toFixed(2)} %`;
}

function formatMoney(value: number, currency: string, options: Intl.NumberFormatOptions): string {
  try {
    return new Intl.NumberFormat(undefined, {
      style: "currency",
      currency: currency.toUpperCase(),
      ...options,
    }).format(value);
  } catch {
    // Crypto quote currencies (btc, eth) are not ISO 4217 codes: show the number and the code.
    return `${new Intl.NumberFormat(undefined, { ...options, style: "decimal" }).format(value)} ${currency.toUpperCase()}`;
  }
}
