import { type ErrorCode, errorBody, KeyportError, statusOf } from "@keyport/errors";
import type { VerifyOptions } from "./server-types.js";
import type { TopUpClient, TopUpOutcome } from "./top-up-client.js";
import type {
  KeyportUnavailable,
  ValidVerification,
  VerificationCode,
  VerificationRateLimit,
  VerifyResult,
} from "./verification.js";
import type { Verifier, VerifyLogger } from "./verifier.js";

/** What the middleware hands the route: the VALID verification, or `UNAVAILABLE` under `onUnavailable: "allow"`. */
export type KeyportContext = ValidVerification | KeyportUnavailable;

/** What Keyport's middleware does when Keyport cannot answer: refuse with 503 (default) or let the request in. */
export type UnavailablePolicy = "deny" | "allow";

/** A response header as a name and a value. */
export type Header = readonly [name: string, value: string];

/** The middleware's verdict on one request, framework-neutral. */
export type Decision =
  | { pass: true; context: KeyportContext; headers: readonly Header[] }
  | { pass: false; status: number; headers: readonly Header[]; body: string };

/** What a middleware needs beyond the key. */
export interface DecideOptions {
  onUnavailable: UnavailablePolicy;
  /** What every request asks of its key (built once, not per request); undefined: nothing beyond VALID. */
  asks: VerifyOptions | undefined;
  logger: VerifyLogger;
  /** Whether the client's address is the last `X-Forwarded-For` entry (see client-address.ts). */
  trustProxy: boolean;
  /** Set by the `topUp` option: a key out of credits is offered a top-up over x402. */
  topUp: TopUpClient | undefined;
}

/** What the agent loop needs of a request (read only when `topUp` is set). */
export interface TopUpRequest {
  /** The requested URL: the resource an agent pays for. */
  url: string;
  /** The request's `PAYMENT-SIGNATURE` header, if any. */
  payment: string | undefined;
}

interface Refusal {
  code: ErrorCode;
  message: string;
}

// Every refusal's status and text: a Record over the server's codes, so a code the server adds fails to
// compile here until it is given an answer.
const REFUSALS: Record<Exclude<VerificationCode, "VALID">, Refusal> = {
  NOT_FOUND: { code: "UNAUTHORIZED", message: "The API key is not valid" },
  REVOKED: { code: "UNAUTHORIZED", message: "The API key has been revoked" },
  EXPIRED: { code: "UNAUTHORIZED", message: "The API key has expired" },
  IP_NOT_ALLOWED: {
    code: "FORBIDDEN",
    message: "The API key may not be used from this address",
  },
  INSUFFICIENT_PERMISSIONS: {
    code: "FORBIDDEN",
    message: "The API key lacks a permission this request needs",
  },
  RATE_LIMITED: { code: "TOO_MANY_REQUESTS", message: "The API key's rate limit is exhausted: retry later" },
  USAGE_EXCEEDED: { code: "TOO_MANY_REQUESTS", message: "The API key has no credits left" },
  WALLET_SUSPENDED: {
    code: "FORBIDDEN",
    message: "The API key's wallet is suspended by this service's operator",
  },
};
const MISSING: Refusal = {
  code: "UNAUTHORIZED",
  message: "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>",
};
const UNAVAILABLE: Refusal = {
  code: "SERVICE_UNAVAILABLE",
  message: "The API key cannot be checked right now: retry shortly",
};
const UNRECOGNIZED: Refusal = { code: "FORBIDDEN", message: "Keyport refused the API key" };
const MISCONFIGURED: Refusal = { code: "INTERNAL_SERVER_ERROR", message: "Internal server error" };

const NO_HEADERS: readonly Header[] = [];
const NO_STORE: Header = ["cache-control", "no-store"];
const CHALLENGE: Header = ["www-authenticate", 'Bearer realm="api"'];

/**
 * Verifies `key` (when there is one) and decides: pass with the verification, or refuse with the
 * project's error envelope, its status and headers (RateLimit-* when a window was consulted, Retry-After
 * when the retry time is known). `ip`, the client's address, is sent along for keys with an allow-list.
 * With `options.topUp` and `request`, a key out of credits is offered a top-up (402 with
 * PAYMENT-REQUIRED), and a request carrying PAYMENT-SIGNATURE pays it and goes on (docs/payments.md,
 * The agent loop).
 */
export async function decide(
  verifier: Verifier,
  key: string | undefined,
  options: DecideOptions,
  ip?: string | undefined,
  request?: TopUpRequest,
  ratelimits?: VerifyOptions["ratelimits"],
): Promise<Decision> {
  if (key === undefined) return refuse(MISSING, [NO_STORE, CHALLENGE]);
  const withIp = ip === undefined ? options.asks : { ...options.asks, ip };
  const asks = ratelimits === undefined ? withIp : { ...withIp, ratelimits };
  let result: VerifyResult;
  try {
    result = await verifier.verify(key, asks);
  } catch (error) {
    return refused(error, options.logger);
  }
  if (result.code === "USAGE_EXCEEDED" && options.topUp && request) {
    const outcome =
      request.payment === undefined
        ? await options.topUp.required(key, result.keyId, request.url)
        : await options.topUp.pay(key, result.keyId, request.payment, request.url);
    const decided = await afterTopUp(outcome, verifier, key, asks, options);
    if (decided !== null) return decided;
  }
  return decideOn(result, options);
}

/** The decision a verification's answer calls for. */
function decideOn(result: VerifyResult, options: DecideOptions): Decision {
  if (result.valid) {
    return {
      pass: true,
      context: result,
      headers: result.ratelimit ? rateLimitHeaders(result.ratelimit, result.ratelimits) : NO_HEADERS,
    };
  }
  if (result.code === "UNAVAILABLE") {
    return options.onUnavailable === "allow"
      ? { pass: true, context: result, headers: NO_HEADERS }
      : refuse(UNAVAILABLE, [NO_STORE]);
  }
  // A newer server's refusal: whatever it is, Keyport said no (never the onUnavailable policy).
  if (result.code === "UNRECOGNIZED") return refuse(UNRECOGNIZED, [NO_STORE]);
  const headers: Header[] = [NO_STORE];
  if (result.ratelimit)
    headers.push(...rateLimitHeaders(result.ratelimit, result.ratelimits, result.code === "RATE_LIMITED"));
  // Out of credits: a retry makes sense at the next refill, when the key has one.
  const refillAt = result.code === "USAGE_EXCEEDED" ? result.credits?.refillAt : null;
  if (refillAt) headers.push(["retry-after", String(secondsUntil(refillAt))]);
  if (REFUSALS[result.code].code === "UNAUTHORIZED") headers.push(CHALLENGE);
  if (result.code === "RATE_LIMITED" && result.ratelimit)
    return refuse(rateLimited(result.ratelimit), headers);
  return refuse(REFUSALS[result.code], headers);
}

/**
 * A 429 naming the limit that refused and when to retry (`Rate limit "tokens" exceeded (limit 1000);
 * retry in 12 s`); a wallet-wide limit says so. A server too old to name its limits gets the plain
 * message. The answer carries no window length, so the message gives none.
 */
function rateLimited(limit: VerificationRateLimit): Refusal {
  const name = Reflect.get(limit, "name");
  if (!isPolicyName(name)) return REFUSALS.RATE_LIMITED;
  const whose = Reflect.get(limit, "scope") === "wallet" ? "The wallet's rate limit" : "Rate limit";
  const retry = Math.max(1, secondsUntil(limit.resetAt));
  return {
    code: "TOO_MANY_REQUESTS",
    message: `${whose} "${name}" exceeded (limit ${limit.limit}); retry in ${retry} s`,
  };
}

/**
 * What a top-up's outcome means for the request: 402 to pay (or a payment refused, with Keyport's reason),
 * 503 when Keyport could not take it (whatever `onUnavailable` says: Keyport did answer that the key is
 * out of credits), or, once paid, what a second verification calls for, with PAYMENT-RESPONSE on it.
 * `null` when Keyport declined the top-up itself: the plain refusal stands.
 */
async function afterTopUp(
  outcome: TopUpOutcome,
  verifier: Verifier,
  key: string,
  asks: DecideOptions["asks"],
  options: DecideOptions,
): Promise<Decision | null> {
  switch (outcome.kind) {
    case "declined":
      return null;
    case "unavailable":
      return refuse(UNAVAILABLE, [NO_STORE]);
    case "required":
      return refuse({ code: "PAYMENT_REQUIRED", message: outcome.message }, [
        NO_STORE,
        ["payment-required", outcome.header],
      ]);
    case "paid": {
      let again: VerifyResult;
      try {
        again = await verifier.verify(key, asks);
      } catch (error) {
        return refused(error, options.logger);
      }
      // The credits are bought whatever comes next; PAYMENT-RESPONSE tells the agent so on any answer.
      const decision = decideOn(again, options);
      if (outcome.paymentResponse === null) return decision;
      return { ...decision, headers: [...decision.headers, ["payment-response", outcome.paymentResponse]] };
    }
  }
}

/**
 * RateLimit-Limit, -Remaining and -Reset (seconds until the binding limit's resetAt), and the IETF
 * draft's RateLimit-Policy (every applied limit, by name, with its quota) and RateLimit (the
 * binding one's remaining and reset); Retry-After when refused by it. A server too old to name its
 * limits gets only the first three.
 */
function rateLimitHeaders(
  window: VerificationRateLimit,
  all: readonly VerificationRateLimit[] | undefined,
  retry = false,
): Header[] {
  const reset = secondsUntil(window.resetAt);
  const headers: Header[] = [
    ["ratelimit-limit", String(window.limit)],
    ["ratelimit-remaining", String(window.remaining)],
    ["ratelimit-reset", String(reset)],
  ];
  const named = (all ?? []).filter((limit) => isPolicyName(limit.name));
  if (isPolicyName(window.name) && named.length > 0) {
    headers.push(["ratelimit-policy", named.map((limit) => `"${limit.name}";q=${limit.limit}`).join(", ")]);
    headers.push(["ratelimit", `"${window.name}";r=${window.remaining};t=${reset}`]);
  }
  if (retry) headers.push(["retry-after", String(reset)]);
  return headers;
}

// Keyport's names are [a-z0-9_.-]: safe inside a structured-field string. Anything else is not sent.
function isPolicyName(name: unknown): name is string {
  return typeof name === "string" && /^[a-z0-9_.-]{1,32}$/.test(name);
}

/** Whole seconds from now until an ISO-8601 time, rounded up, never below 0. */
function secondsUntil(iso: string): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
}

// Keyport refused the request itself: a key longer than any key is simply not a key (401); anything else
// is the middleware's own options (permissions or cost out of range), a bug for the backend's log.
function refused(error: unknown, logger: VerifyLogger): Decision {
  if (error instanceof KeyportError && error.issues?.some((issue) => issue.path[0] === "key")) {
    return refuse(REFUSALS.NOT_FOUND, [NO_STORE, CHALLENGE]);
  }
  // A client address Keyport cannot read is no address an allow-list holds.
  if (error instanceof KeyportError && error.issues?.some((issue) => issue.path[0] === "ip")) {
    return refuse(REFUSALS.IP_NOT_ALLOWED, [NO_STORE]);
  }
  const detail =
    error instanceof KeyportError
      ? `${error.code}: ${error.message}${error.issues ? ` ${JSON.stringify(error.issues)}` : ""}`
      : "an unexpected error";
  logger.warn(
    `Keyport refused the middleware's verification request (${detail}): check its permissions and cost`,
  );
  return refuse(MISCONFIGURED, [NO_STORE]);
}

function refuse(refusal: Refusal, headers: readonly Header[]): Decision {
  return {
    pass: false,
    status: statusOf(refusal.code),
    headers,
    body: JSON.stringify(errorBody(refusal.code, refusal.message)),
  };
}
