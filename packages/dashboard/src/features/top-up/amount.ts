/**
 * A whole number of USDC as the top-up sends it ("5"), or null when the text is not one ("", "1.5",
 * "-2"). The bounds are the server's: its quote answers 400 naming them (docs/dashboard.md, Top up).
 * @example wholeAmount(" 007 ") // "7"
 */
export function wholeAmount(text: string): string | null {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  return String(Number(trimmed));
}
