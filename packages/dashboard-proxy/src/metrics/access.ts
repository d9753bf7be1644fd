import { createHash, timingSafeEqual } from "node:crypto";
import type { H3Event } from "h3";

/** Whether a request may read `/metrics`, and if not, why. */
export type MetricsAccess = "allowed" | "unauthorized" | "forbidden";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Decides who reads `/metrics`. With a token set: exactly `Authorization: Bearer <token>`,
 * compared in constant time (both sides hashed first, so even the length is not leaked), else
 * `unauthorized`. Without one: only a loopback socket peer with no `X-Forwarded-For` or
 * `Forwarded` header (a reverse proxy on the same host would otherwise relay the world), else
 * `forbidden`. The peer is the socket's, never an address read from a header.
 * @example const check = createMetricsAccess(env.METRICS_TOKEN); check(event) === "allowed"
 */
export function createMetricsAccess(token: string | undefined): (event: H3Event) => MetricsAccess {
  if (token === undefined) {
    return (event) => {
      const { headers } = event.req;
      return isLoopback(event.runtime?.node?.req.socket.remoteAddress) &&
        !headers.has("x-forwarded-for") &&
        !headers.has("forwarded")
        ? "allowed"
        : "forbidden";
    };
  }
  const expected = digest(token);
  return (event) => {
    const presented = BEARER.exec(event.req.headers.get("authorization") ?? "")?.[1];
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
