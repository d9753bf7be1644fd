import type { DecideOptions, Header, UnavailablePolicy } from "./decision.js";
import type { VerifyOptions } from "./server-types.js";
import { checkTopUpOptions, createTopUpClient, type TopUpOptions } from "./top-up-client.js";
import { createVerifier, DEFAULT_TIMEOUT_MS, type Verifier, type VerifierOptions } from "./verifier.js";

/** A key getter: the key a request carries, or nothing (answered 401). */
export type GetKey<Request> = (
  request: Request,
) => string | null | undefined | Promise<string | null | undefined>;

/** A client-address getter: the end client's IPv4 or IPv6 address, or nothing (no `ip` is sent). */
export type GetIp<Request> = (request: Request) => string | null | undefined;

/** The options of every middleware: the verifier's, plus what the protected routes ask of a key. */
export interface KeyportOptions<Request> extends VerifierOptions {
  /** When Keyport cannot answer: `"deny"` answers 503 (default), `"allow"` lets the request in. */
  onUnavailable?: UnavailablePolicy;
  /** Permissions every request must hold (403 otherwise). */
  permissions?: string[];
  /** Credits each request spends (Keyport's default: 1). */
  cost?: number;
  /**
   * The named limits a request applies and their cost, per request (e.g. a model API's tokens):
   * `(req) => [{ name: "tokens", cost: estimate(req) }]`. Auto-applied limits not named cost 1; a
   * name neither the key nor its wallet has is Keyport's 400 (the middleware answers 500 and logs it).
   */
  ratelimits?: (request: Request) => VerifyOptions["ratelimits"];
  /** Where the key is read (default: `Authorization: Bearer <key>`, else `X-API-Key`). */
  getKey?: GetKey<Request>;
  /**
   * Read the client's address from the last `X-Forwarded-For` entry (the one the proxy in front of this
   * backend wrote) rather than the socket's peer. Default false: the header is ignored, since a client
   * can write it. Turn it on only behind exactly one proxy that sets the header.
   */
  trustProxy?: boolean;
  /** Where the client's address comes from instead (e.g. a platform header); replaces the peer and `trustProxy`. */
  getIp?: GetIp<Request>;
  /**
   * Lets an agent out of credits buy more over x402 and go on: a request refused for `USAGE_EXCEEDED`
   * gets 402 with a PAYMENT-REQUIRED for a top-up of `amount` whole tokens of this key, and its retry with
   * PAYMENT-SIGNATURE is paid through Keyport and let in (docs/payments.md, The agent loop).
   */
  topUp?: TopUpOptions;
}

/** One verifier per middleware (so one connection pool and one outage log), and its fixed settings. */
export function prepare<Request>(options: KeyportOptions<Request>): {
  verifier: Verifier;
  settings: DecideOptions;
} {
  if (options.topUp) checkTopUpOptions(options.topUp);
  const logger = options.logger ?? console;
  return {
    verifier: createVerifier(options),
    settings: {
      onUnavailable: options.onUnavailable ?? "deny",
      asks:
        options.permissions === undefined && options.cost === undefined
          ? undefined
          : { permissions: options.permissions, cost: options.cost },
      logger,
      trustProxy: options.trustProxy ?? false,
      topUp: options.topUp
        ? createTopUpClient({
            baseUrl: options.baseUrl,
            amount: options.topUp.amount,
            timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            fetch: options.fetch ?? globalThis.fetch,
            logger,
          })
        : undefined,
    },
  };
}

/** The content type of every refusal (the project's error envelope). */
export const JSON_CONTENT_TYPE: Header = ["content-type", "application/json; charset=utf-8"];
