import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";

// JSON-RPC error codes a node answers when it is overloaded or failing rather than refusing the call:
// internal error, resource unavailable, limit exceeded, and the rate-limit codes providers use.
const TRANSIENT_CODES = new Set([-32603, -32002, -32005, -32007, 429, -1]);

/**
 * Whether `error` (from viem, anywhere in its `cause` chain) says the node could not answer now: an
 * HTTP failure (429, 5xx, connection refused), a timeout, or an overload code. A revert or any other
 * answer the node gave is not: it is the chain's word on the payment.
 */
export function isTransientRpcFailure(error: unknown): boolean {
  for (let inner = error, depth = 0; inner instanceof Error && depth < 8; depth++) {
    if (inner instanceof HttpRequestError || inner instanceof TimeoutError) return true;
    if (inner instanceof RpcRequestError && TRANSIENT_CODES.has(inner.code)) return true;
    const code: unknown = Reflect.get(inner, "code");
    if (typeof code === "number" && TRANSIENT_CODES.has(code)) return true;
    inner = inner.cause;
  }
  return false;
}

/**
 * What went wrong, in words safe for a log line: the HTTP status or JSON-RPC code only. viem's own
 * messages name the node's URL (PAYMENTS_RPC_URL often holds a provider key) and the request body
 * (docs/security.md), so they never leave this module.
 * @example describeRpcFailure(error) // "the node answered HTTP 429"
 */
export function describeRpcFailure(error: unknown): string {
  for (let inner = error, depth = 0; inner instanceof Error && depth < 8; depth++) {
    if (inner instanceof HttpRequestError) {
      return inner.status === undefined
        ? "the node could not be reached"
        : `the node answered HTTP ${inner.status}`;
    }
    if (inner instanceof TimeoutError) return "the node did not answer in time";
    if (inner instanceof RpcRequestError) return `the node answered JSON-RPC error ${inner.code}`;
    inner = inner.cause;
  }
  return "the facilitator or the node could not be used";
}

/** An error whose message is `describeRpcFailure`'s: what a payment's log line and `cause` carry instead of viem's. */
export class RpcFailure extends Error {
  override name = "RpcFailure";
  constructor(error: unknown) {
    super(describeRpcFailure(error));
  }
}
