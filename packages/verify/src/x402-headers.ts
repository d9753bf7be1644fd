// x402 v2's headers are base64 of UTF-8 JSON (docs/payments.md); written here by hand so the package
// stays free of runtime dependencies. btoa, atob and TextEncoder exist on every runtime the package
// supports (Node 20+, Bun, Deno, Workers).

/** What an x402 v2 resource names: the URL paid for. */
export interface X402Resource {
  url: string;
  description?: string;
  mimeType?: string;
}

/** One way to pay, as Keyport states it (`amount` in the token's base units). */
export interface X402Requirement {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: Record<string, unknown>;
}

/** The decoded `PAYMENT-REQUIRED` header of an x402 v2 402 answer. */
export interface X402PaymentRequired {
  x402Version: 2;
  error?: string;
  resource: X402Resource;
  accepts: X402Requirement[];
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

function encode(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function decode(header: string): unknown {
  try {
    const binary = atob(header);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

function isRequirement(value: unknown): value is X402Requirement {
  if (!isObject(value)) return false;
  const field = (name: string): unknown => Reflect.get(value, name);
  return (
    ["scheme", "network", "amount", "asset", "payTo"].every((name) => typeof field(name) === "string") &&
    typeof field("maxTimeoutSeconds") === "number"
  );
}

function isPaymentRequired(value: unknown): value is X402PaymentRequired {
  if (!isObject(value)) return false;
  const resource = Reflect.get(value, "resource");
  const accepts = Reflect.get(value, "accepts");
  return (
    Reflect.get(value, "x402Version") === 2 &&
    isObject(resource) &&
    typeof Reflect.get(resource, "url") === "string" &&
    Array.isArray(accepts) &&
    accepts.length > 0 &&
    accepts.every(isRequirement)
  );
}

/**
 * Keyport's `PAYMENT-REQUIRED` header restated for `url` (the backend's resource the agent asked for),
 * or `null` when the header is not an x402 v2 PaymentRequired.
 */
export function requiredFor(header: string, url: string): string | null {
  const required = decode(header);
  if (!isPaymentRequired(required)) return null;
  return encode({ ...required, resource: { ...required.resource, url } });
}

/** The longest wait a payment's requirement may name, whatever a client writes in it. */
const LONGEST_SECONDS = 600;
/** What a top-up may take when the payment names no readable `maxTimeoutSeconds`. */
const DEFAULT_SECONDS = 60;

/**
 * Seconds a top-up with this `PAYMENT-SIGNATURE` may take: its accepted requirement's
 * `maxTimeoutSeconds` (Keyport refuses at once a payment whose value differs from its own), within
 * 1..600; 60 when it cannot be read.
 */
export function paymentTimeoutSeconds(signature: string): number {
  const payload = decode(signature);
  const accepted = isObject(payload) ? Reflect.get(payload, "accepted") : undefined;
  const seconds = isObject(accepted) ? Reflect.get(accepted, "maxTimeoutSeconds") : undefined;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return DEFAULT_SECONDS;
  return Math.min(LONGEST_SECONDS, Math.max(1, seconds));
}
