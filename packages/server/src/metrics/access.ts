import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Whether a request may read `/metrics`, and if not, why. */
export type MetricsAccess = "allowed" | "unauthorized" | "forbidden";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Decides who reads `/metrics`. With a token set: exactly `Authorization: Bearer <token>`,
 * compared in constant time (both sides hashed first, so even the length is not leaked),
 * else `unauthorized`. Without one: only a loopback peer with no `X-Forwarded-For` or
 * `Forwarded` header (a reverse proxy on the same host would otherwise relay the world), else
 * `forbidden`.
 * @example const check = createMetricsAccess(env.METRICS_TOKEN); check(req) === "allowed"
 */
export function createMetricsAccess(token: string | undefined): (req: IncomingMessage) => MetricsAccess {
  if (token === undefined) {
    return (req) =>
      isLoopback(req.socket.remoteAddress) &&
      req.headers["x-forwarded-for"] === undefined &&
      req.headers.forwarded === undefined
        ? "allowed"
        : "forbidden";
  }
  const expected = digest(token);
  return (req) => {
    const presented = BEARER.exec(req.headers.authorization ?? "")?.[1];
    if (presented === undefined) return "unauthorized";
    return timingSafeEqual(digest(presented), expected) ? "allowed" : "unauthorized";
  };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
