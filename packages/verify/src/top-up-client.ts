import { paymentTimeoutSeconds, requiredFor } from "./x402-headers.js";

/** The middleware's `topUp` option: what an agent out of credits is asked to buy (docs/payments.md). */
export interface TopUpOptions {
  /** Whole tokens a top-up buys, as a decimal string within Keyport's bounds (e.g. `"5"`, `"0.5"`). */
  amount: string;
}

/** What came of asking Keyport for a top-up of the request's own key. */
export type TopUpOutcome =
  /** 402: pay this (`header`: x402 v2 PAYMENT-REQUIRED for the backend's URL), `message` why. */
  | { kind: "required"; header: string; message: string }
  /** Keyport credited the payment; `paymentResponse` is its PAYMENT-RESPONSE header. */
  | { kind: "paid"; paymentResponse: string | null }
  /** Keyport (or its chain) did not answer. */
  | { kind: "unavailable" }
  /** Keyport refused the top-up itself (payments off, amount out of bounds, key not metered): logged. */
  | { kind: "declined" };

/** Keyport's top-up route, called with the key the request carries (never a private key). */
export interface TopUpClient {
  /** Asks what a top-up of the configured amount costs (Keyport's 402), restated for `url`. */
  required(key: string, keyId: string, url: string): Promise<TopUpOutcome>;
  /** Forwards the agent's `PAYMENT-SIGNATURE` for a top-up of the configured amount. */
  pay(key: string, keyId: string, signature: string, url: string): Promise<TopUpOutcome>;
}

export interface TopUpClientOptions {
  baseUrl: string;
  amount: string;
  /** The bound of an unpaid request (the verifier's timeout); a paid one waits as long as its requirement says. */
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
  logger: { warn(message: string): void };
}

// Whole tokens: digits, optionally a fraction (Keyport checks the bounds and the token's decimals).
const AMOUNT = /^\d+(\.\d+)?$/;
// Keyport answers 503 itself once a settlement outlasts the requirement's bound: wait a little longer.
const SLACK_MS = 5_000;

/** Checks `topUp.amount` when the middleware is built (a typo fails at start, not at the first agent). */
export function checkTopUpOptions(options: TopUpOptions): void {
  if (!AMOUNT.test(options.amount))
    throw new RangeError('topUp.amount must be whole tokens as a decimal string, e.g. "5"');
}

/** A client of `POST /api-keys/:id/top-up` on one Keyport server, for one amount. */
export function createTopUpClient(options: TopUpClientOptions): TopUpClient {
  const base = new URL(options.baseUrl);
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, "")}/api-keys/`;
  const body = JSON.stringify({ amount: options.amount });
  const { logger } = options;

  async function call(key: string, keyId: string, url: string, timeoutMs: number, signature?: string) {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
      "x-api-key": key,
    };
    if (signature !== undefined) headers["payment-signature"] = signature;
    let response: Response;
    let text: string;
    try {
      response = await options.fetch(`${prefix}${encodeURIComponent(keyId)}/top-up`, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch {
      logger.warn(`Keyport at ${base.origin} did not answer a top-up within ${timeoutMs} ms`);
      return { kind: "unavailable" } as const;
    }
    return outcomeOf(response, text, url);
  }

  function outcomeOf(response: Response, text: string, url: string): TopUpOutcome {
    const { status } = response;
    if (status === 200) return { kind: "paid", paymentResponse: response.headers.get("payment-response") };
    // 501 is no outage: payments are off on that server (declined below, like a 4xx).
    if (status >= 500 && status !== 501) {
      logger.warn(`Keyport at ${base.origin} could not take a top-up (HTTP ${status})`);
      return { kind: "unavailable" };
    }
    const message = messageOf(text);
    if (status === 402) {
      const header = requiredFor(response.headers.get("payment-required") ?? "", url);
      if (header !== null) return { kind: "required", header, message: message ?? "Payment required" };
      logger.warn(`Keyport at ${base.origin} answered a top-up with 402 but no x402 v2 PAYMENT-REQUIRED`);
      return { kind: "unavailable" };
    }
    // 501: the server takes no top-ups at all (payments off); its envelope says why.
    if (status === 501) {
      logger.warn(
        `Keyport at ${base.origin} takes no top-ups: ${message ?? "HTTP 501"}. Remove topUp from the middleware or turn payments on`,
      );
      return { kind: "declined" };
    }
    logger.warn(
      `Keyport refused the middleware's top-up of ${options.amount} with HTTP ${status}` +
        `${message ? ` (${message})` : ""}: check topUp.amount and the server's PAYMENTS_ settings`,
    );
    return { kind: "declined" };
  }

  return {
    required: (key, keyId, url) => call(key, keyId, url, options.timeoutMs),
    pay: (key, keyId, signature, url) =>
      call(key, keyId, url, paymentTimeoutSeconds(signature) * 1000 + SLACK_MS, signature),
  };
}

// Keyport's envelope (`{ code, message }`, docs/api.md); its messages never quote a key or a signature.
function messageOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const message =
      typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "message") : undefined;
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}
