import type { ApiError } from "../http/errors.js";

/**
 * Why an upstream call did not produce a usable answer. A value, not an exception: routes map it
 * to a status. `detail` is for our logs only (a status or an error code, never a URL or a body).
 */
export type UpstreamFailure =
  | { kind: "rate_limited"; retryAfterSeconds: number; detail: string }
  | { kind: "timeout"; detail: string }
  | { kind: "bad_gateway"; detail: string }
  | { kind: "not_found"; detail: string }
  | { kind: "rejected"; detail: string }
  | { kind: "client_closed"; detail: string }
  /** The upstream's plan does not offer this data (CoinGecko 10012: beyond the time range; 10005). */
  | { kind: "plan_limit"; detail: string }
  /**
   * The upstream refused our credentials or host (CoinGecko 401, 10002, 10010, 10011): an operator
   * must fix `setting`; `hint` says how, for the error log.
   */
  | { kind: "misconfigured"; setting: UpstreamSetting; hint: string; detail: string }
  /**
   * Our own upstream budget (`COINGECKO_CALLS_PER_MINUTE` / `_PER_MONTH`), or the asking client's
   * share of it (`COINGECKO_CLIENT_CALLS_PER_MINUTE`), is spent: no call was made.
   */
  | { kind: "budget_spent"; window: "minute" | "month" | "client"; retryAfterSeconds: number; detail: string }
  /** A dependency the call needs (the shared budget or cache in Redis) cannot be reached. */
  | { kind: "unavailable"; detail: string };

/** The settings a misconfigured upstream call names. */
export type UpstreamSetting = "COINGECKO_API_KEY" | "COINGECKO_PLAN";

/** The outcome of one upstream call. */
export type UpstreamResult<T> = { ok: true; value: T } | { ok: false; failure: UpstreamFailure };

/** Used when an upstream 429 carries no usable `Retry-After`. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;
const MAX_RETRY_AFTER_SECONDS = 3_600;

/**
 * Reads `Retry-After` (delta-seconds or an HTTP date), clamped to 1 s..1 h.
 * @example parseRetryAfter("12", Date.now()) // 12
 */
export function parseRetryAfter(header: string | null, nowMs: number): number {
  const clamp = (seconds: number) => Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
  if (header === null) return DEFAULT_RETRY_AFTER_SECONDS;
  const value = header.trim();
  if (/^[0-9]+$/.test(value)) return clamp(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_SECONDS;
  return clamp((date - nowMs) / 1_000);
}

/**
 * Maps a failure to the error envelope the client sees; `service` names the upstream in plain words,
 * `plan` the upstream plan a `plan_limit` refers to (`demo`, `pro`...).
 */
export function failureToApiError(failure: UpstreamFailure, service: string, plan = "current"): ApiError {
  switch (failure.kind) {
    case "rate_limited":
      return {
        code: "TOO_MANY_REQUESTS",
        message: `The ${service} is rate limiting us; retry after ${failure.retryAfterSeconds} s`,
        headers: { "retry-after": String(failure.retryAfterSeconds) },
      };
    case "timeout":
      return { code: "GATEWAY_TIMEOUT", message: `The ${service} did not answer in time` };
    case "not_found":
      return { code: "NOT_FOUND", message: `The ${service} does not know this coin` };
    case "rejected":
      return { code: "BAD_REQUEST", message: `The ${service} rejected the request` };
    case "plan_limit":
      // A 400 like the proxy's own plan checks: the same request on a plan that offers it would work.
      return {
        code: "BAD_REQUEST",
        message: `This range or interval is not available on the ${plan} plan of the ${service}`,
      };
    case "misconfigured":
      // The operator's problem, not the caller's: the error log names the setting, the caller sees a 502.
      return { code: "BAD_GATEWAY", message: `The ${service} failed to answer` };
    case "client_closed":
      return { code: "CLIENT_CLOSED_REQUEST", message: "The request was cancelled by the client" };
    case "bad_gateway":
      return { code: "BAD_GATEWAY", message: `The ${service} failed to answer` };
    case "budget_spent":
      return {
        code: "TOO_MANY_REQUESTS",
        message:
          failure.window === "client"
            ? `Your share of this proxy's ${service} calls is spent (uncached data asked for too often); retry after ${failure.retryAfterSeconds} s`
            : `This proxy's ${failure.window === "minute" ? "per-minute" : "monthly"} budget of ${service} calls is spent; retry after ${failure.retryAfterSeconds} s`,
        headers: { "retry-after": String(failure.retryAfterSeconds) },
      };
    case "unavailable":
      return { code: "SERVICE_UNAVAILABLE", message: "The shared market data cache is unavailable" };
  }
}
