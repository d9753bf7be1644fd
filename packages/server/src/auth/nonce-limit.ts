import { isIP } from "node:net";
import type { RateLimiter } from "@keyport/node-edge";

/** NONCE_RATE_LIMIT parsed: at most `limit` nonces per client address per `windowSeconds`. */
export interface NonceRateLimit {
  limit: number;
  windowSeconds: number;
}

const RULE = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,5})$/;

/**
 * Reads a NONCE_RATE_LIMIT value: `<count>/<seconds>` (count 1-9,999,999, seconds 1-86,400), or
 * `off` for no limit (null). Undefined when the value is neither.
 * @example parseNonceRateLimit("10/60") // { limit: 10, windowSeconds: 60 }
 */
export function parseNonceRateLimit(value: string): NonceRateLimit | null | undefined {
  if (value === "off") return null;
  const match = RULE.exec(value);
  if (!match) return undefined;
  const windowSeconds = Number(match[2]);
  return windowSeconds <= 86_400 ? { limit: Number(match[1]), windowSeconds } : undefined;
}

/** The first 64 bits of an IPv6 address, as `a:b:c:d::/64` with groups in lower-case hex. */
function ipv6Prefix64(address: string): string {
  const [head = "", tail] = address.split("::");
  // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) fills the last two groups.
  const groups = (part: string) =>
    part === "" ? [] : part.split(":").flatMap((group) => (group.includes(".") ? ["0", "0"] : [group]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => "0");
  const full = tail === undefined ? left : [...left, ...zeros, ...right];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * Which client a request counts as: its IPv4 address, or its IPv6 /64 (one subscriber usually holds
 * a whole /64, so counting single IPv6 addresses would let one client rotate past a limit). Requests
 * whose address is unknown are one client, `unknown`.
 * @example clientBucket("2001:db8:0:1::7") // "2001:db8:0:1::/64"
 */
export function clientBucket(clientIp: string | undefined): string {
  // A zone id (`fe80::1%eth0`) names an interface, not a host.
  const address = clientIp?.split("%")[0] ?? "";
  const family = isIP(address);
  if (family === 4) return address;
  if (family === 6) return ipv6Prefix64(address);
  return "unknown";
}

/** Whose budget a nonce request draws on: `nonce:` and the client's {@link clientBucket}. */
export function nonceBudgetKey(clientIp: string | undefined): string {
  return `nonce:${clientBucket(clientIp)}`;
}

/** Whether a client may have another nonce now; when not, when the window ends. */
export type NonceAllowance = { allowed: true } | { allowed: false; resetAt: Date };

/** Counts nonces per client address (see {@link nonceBudgetKey}) with a fixed-window limiter. */
export interface NonceLimiter {
  take(clientIp: string | undefined, nowMs: number): Promise<NonceAllowance>;
}

/**
 * A nonce limiter over `limiter` (in-process, or Redis so every instance shares the count); with no
 * rule (`NONCE_RATE_LIMIT=off`) every request is allowed.
 */
export function createNonceLimiter(limiter: RateLimiter, rule: NonceRateLimit | null): NonceLimiter {
  return {
    async take(clientIp, nowMs) {
      if (rule === null) return { allowed: true };
      const result = await limiter.consume(nonceBudgetKey(clientIp), rule.limit, rule.windowSeconds, nowMs);
      return result.allowed ? { allowed: true } : { allowed: false, resetAt: result.resetAt };
    },
  };
}
