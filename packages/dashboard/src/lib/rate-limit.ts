import type { RouterInputs } from "@keyport/server";
import { formatCount } from "./format";
import type { Parsed } from "./parsed";

/** A rate limit as a key and the wallet-wide limit take it. */
export type RateLimit = NonNullable<RouterInputs["limits"]["set"]["rateLimit"]>;

// The server's bounds (schemas/api-key.ts `rateLimit`), mirrored so the form answers before a round trip.
const MAX_LIMIT = 1_000_000;
const MAX_WINDOW_SECONDS = 86_400;

/**
 * A rate limit from two text inputs: both empty is no limit (null); otherwise both must be whole numbers
 * in the server's bounds.
 * @example parseRateLimit("100", "60") // { ok: true, value: { limit: 100, windowSeconds: 60 } }
 */
export function parseRateLimit(limitText: string, windowText: string): Parsed<RateLimit | null> {
  if (limitText.trim() === "" && windowText.trim() === "") return { ok: true, value: null };
  const limit = wholeNumber(limitText);
  const windowSeconds = wholeNumber(windowText);
  if (limit === null || limit < 1 || limit > MAX_LIMIT) {
    return { ok: false, message: "The rate limit is a whole number of requests from 1 to 1,000,000." };
  }
  if (windowSeconds === null || windowSeconds < 1 || windowSeconds > MAX_WINDOW_SECONDS) {
    return { ok: false, message: "The rate limit window is a whole number of seconds from 1 to 86,400." };
  }
  return { ok: true, value: { limit, windowSeconds } };
}

/** `100 / 60 s`, or `none`. */
export function formatRateLimit(rateLimit: RateLimit | null): string {
  if (rateLimit === null) return "none";
  return `${formatCount(rateLimit.limit)} / ${formatCount(rateLimit.windowSeconds)} s`;
}

/** A whole number typed into a text or number input, or null (empty, fractional, not a number). */
export function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}
