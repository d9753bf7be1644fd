/** The quote currencies offered (CoinGecko accepts more; these cover most users). */
export const CURRENCIES = ["usd", "eur", "gbp", "jpy", "chf", "btc", "eth"] as const;

/** The currency named in `?vs=` of `search`, or usd. */
export function currencyFromSearch(search: string): string {
  const value = new URLSearchParams(search).get("vs");
  return CURRENCIES.find((currency) => currency === value) ?? "usd";
}
