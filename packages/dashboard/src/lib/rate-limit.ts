import type { RouterInputs } from "@keyport/server";
import {
  MAX_RATE_LIMIT,
  MAX_RATE_LIMIT_WINDOW_SECONDS,
  rateLimit as rateLimitSchema,
} from "@keyport/server/schemas";
import { formatCount } from "./format";
import type { Parsed } from "./parsed";

/** A rate limit as a key and the wallet-wide limit take it. */
export type RateLimit = NonNullable<RouterInputs["limits"]["set"]["rateLimit"]>;

/**
 * A rate limit from two text inputs: both empty is no limit (null); otherwise both must be whole numbers
 * the server's `rateLimit` schema accepts (checked with it, so the form answers before a round trip).
 * @example parseRateLimit("100", "60") // { ok: true, value: { limit: 100, windowSeconds: 60 } }
 */
export function parseRateLimit(limitText: string, windowText: string): Parsed<RateLimit | null> {
  if (limitText.trim() === "" && windowText.trim() === "") return { ok: true, value: null };
  const limit = wholeNumber(limitText);
  const windowSeconds = wholeNumber(windowText);
  if (limit === null || !rateLimitSchema.shape.limit.safeParse(limit).success) {
    return {
      ok: false,
      message: `The rate limit is a whole number of requests from 1 to ${formatCount(MAX_RATE_LIMIT)}.`,
    };
  }
  if (windowSeconds === null || !rateLimitSchema.shape.windowSeconds.safeParse(windowSeconds).success) {
    return {
      ok: false,
      message: `The rate limit window is a whole number of seconds from 1 to ${formatCount(MAX_RATE_LIMIT_WINDOW_SECONDS)}.`,
    };
  }
  return { ok: true, value: { limit, windowSeconds } };
}

/** `100 / 60 s`, or `none`. */
export function formatRateLimit(rateLimit: RateLimit | null): string {
  if (rateLimit === null) return "none";
  return `${formatCount(rateLimit.limit)} / ${formatCount(rateLimit.windowSeconds)} s`;
}

/**
 * A key's named limits in a table cell: its one `default` limit as `formatRateLimit` says it, else
 * each by name ("default 100 / 60 s, tokens 200,000 / 60 s (when asked)"), or `none`.
 */
export function formatRateLimits(
  limits: readonly (RateLimit & { name: string; autoApply?: boolean | undefined })[],
): string {
  const [only] = limits;
  if (only === undefined) return "none";
  if (limits.length === 1 && only.name === "default" && only.autoApply !== false)
    return formatRateLimit(only);
  return limits
    .map(
      (limit) => `${limit.name} ${formatRateLimit(limit)}${limit.autoApply === false ? " (when asked)" : ""}`,
    )
    .join(", ");
}

const WINDOW_WORDS: Record<number, string> = { 1: "second", 60: "minute", 3600: "hour", 86400: "day" };

/** `100 per minute`, `5 per 30 seconds`, or `none`: a rate limit in a sentence. */
export function describeRateLimit(rateLimit: RateLimit | null): string {
  if (rateLimit === null) return "none";
  const unit = WINDOW_WORDS[rateLimit.windowSeconds];
  const window = unit ?? `${formatCount(rateLimit.windowSeconds)} seconds`;
  return `${formatCount(rateLimit.limit)} per ${window}`;
}

/** A whole number typed into a text or number input, or null (empty, fractional, not a number). */
export function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}
