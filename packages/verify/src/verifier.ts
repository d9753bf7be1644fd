import { type KeyportError, REQUEST_ID_HEADER, toKeyportError } from "@keyport/errors";
import type { VerifyOptions } from "./server-types.js";
import {
  isVerification,
  type KeyportUnavailable,
  readUnrecognizedRefusal,
  type UnavailableReason,
  type UnrecognizedRefusal,
  type VerifyResult,
} from "./verification.js";

/** Where the verifier reports an outage and the recovery after it. Never given a key. */
export interface VerifyLogger {
  warn(message: string): void;
  info?(message: string): void;
}

/** How to reach Keyport. */
export interface VerifierOptions {
  /** The Keyport server, e.g. `https://keyport.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** How long one verification may take, answer body included, before it counts as unavailable (default 2,000). */
  timeoutMs?: number;
  /** The `fetch` to call (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** Receives one warning when Keyport stops answering and one line when it answers again (default `console`). */
  logger?: VerifyLogger;
}

/** Verifies keys against one Keyport server. */
export interface Verifier {
  /**
   * Asks Keyport about `key`: one `POST /api-keys/verify` a call, never shared or cached (each spends
   * the key's rate limit and credits). Resolves to the verification, or to `UNAVAILABLE` when Keyport
   * cannot answer; rejects with a `KeyportError` only when Keyport refuses the request itself (400:
   * `permissions` or `cost` out of range, an `ip` that is no address, a key longer than any key).
   */
  verify(key: string, options?: VerifyOptions): Promise<VerifyResult>;
}

/** How long one verification may take unless told (ms). */
export const DEFAULT_TIMEOUT_MS = 2_000;
// Unknown codes already warned about, at most this many (a server sends a handful, not thousands).
const MAX_WARNED_CODES = 32;
// One headers object for every request: nothing in it depends on the call.
const HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json",
  accept: "application/json",
};

/**
 * A verifier of Keyport keys over `fetch` (Node 20+, Bun, Deno, Workers: nothing Node-only).
 * @example
 * const keyport = createVerifier({ baseUrl: "https://keyport.example.com" });
 * const result = await keyport.verify(key, { permissions: ["prices:read"] });
 * if (result.valid) serve(result.keyId);
 */
export function createVerifier(options: VerifierOptions): Verifier {
  const base = new URL(options.baseUrl);
  const url = `${base.origin}${base.pathname.replace(/\/+$/, "")}/api-keys/verify`;
  // Named in log lines by origin only: a base URL's user, password or query never reaches the log.
  const where = base.origin;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError("timeoutMs must be a positive number");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const logger = options.logger ?? console;
  let down = false;
  const warnedCodes = new Set<string>();

  function unavailable(reason: UnavailableReason, status: number | null): KeyportUnavailable {
    if (!down) {
      down = true;
      logger.warn(
        `Keyport at ${where} cannot verify keys (${describe(reason, status, timeoutMs)}); ` +
          "requests are answered by the onUnavailable policy until it answers again",
      );
    }
    return { valid: false, code: "UNAVAILABLE", reason, status };
  }

  /** A newer server's code: refused, and named once in the log so the backend knows to upgrade. */
  function unrecognized(refusal: UnrecognizedRefusal): UnrecognizedRefusal {
    if (!warnedCodes.has(refusal.serverCode) && warnedCodes.size < MAX_WARNED_CODES) {
      warnedCodes.add(refusal.serverCode);
      logger.warn(
        `Keyport at ${where} answered a verification code this version of @keyport/verify does not know ` +
          `(${printable(refusal.serverCode)}): such keys are refused; upgrade @keyport/verify to handle it by name`,
      );
    }
    return refusal;
  }

  function answered(): void {
    if (!down) return;
    down = false;
    (logger.info ?? logger.warn).call(logger, `Keyport at ${where} verifies keys again`);
  }

  async function verify(key: string, verifyOptions?: VerifyOptions): Promise<VerifyResult> {
    const body =
      verifyOptions === undefined
        ? JSON.stringify({ key })
        : JSON.stringify({
            key,
            ip: verifyOptions.ip,
            permissions: verifyOptions.permissions,
            cost: verifyOptions.cost,
            ratelimits: verifyOptions.ratelimits,
          });
    let response: Response;
    let text: string;
    // A controller and a timer rather than AbortSignal.timeout(), which costs Node 20 some 40 µs a call
    // (a few percent of a verification); the timer is cleared as soon as the body is in.
    const controller = new AbortController();
    const timer = setTimeout(abort, timeoutMs, controller);
    try {
      // The signal covers the body too: a server that sends headers and then stalls times out as well.
      response = await fetchImpl(url, { method: "POST", headers: HEADERS, body, signal: controller.signal });
      text = await response.text();
    } catch {
      return unavailable(controller.signal.aborted ? "timeout" : "network", null);
    } finally {
      clearTimeout(timer);
    }
    if (response.status >= 500) return unavailable("server_error", response.status);
    const parsed = parseJson(text);
    if (response.status !== 200) {
      answered();
      throw requestRefused(response.status, parsed, response.headers.get(REQUEST_ID_HEADER));
    }
    if (isVerification(parsed)) {
      answered();
      return parsed;
    }
    const refusal = readUnrecognizedRefusal(parsed);
    if (refusal === undefined) return unavailable("bad_answer", response.status);
    answered();
    return unrecognized(refusal);
  }

  return { verify };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A code as a log line may quote it: Keyport's codes are short upper-case words; anything else is cut. */
function printable(code: string): string {
  return /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : "an unreadable code";
}

function abort(controller: AbortController): void {
  controller.abort();
}

function describe(reason: UnavailableReason, status: number | null, timeoutMs: number): string {
  switch (reason) {
    case "timeout":
      return `no answer within ${timeoutMs} ms`;
    case "network":
      return "no connection";
    case "server_error":
      return `it answered HTTP ${status}`;
    case "bad_answer":
      return `its HTTP ${status} answer is not a verification`;
  }
}

// Keyport's envelope names the fields it refused; its messages never echo the key.
function requestRefused(status: number, body: unknown, requestId: string | null): KeyportError {
  return toKeyportError(status, body, {
    fallbackMessage: `Keyport refused the verification with HTTP ${status}`,
    requestId,
  });
}
