import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { unmappedIpv4 } from "./embedded-ipv4.js";

/** Whether a request may read `/metrics`, and if not, why. */
export type MetricsAccess = "allowed" | "unauthorized" | "forbidden";

/**
 * Headers a reverse proxy (or a CDN) adds to say whom it relays: any of them on a loopback request
 * means the peer is a proxy on this host, and the caller may be anyone.
 */
const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-original-forwarded-for",
  "x-real-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "via",
] as const;

/** What the access rule reads of a request, whatever server received it. */
export interface MetricsRequest {
  /** The socket's peer address, never an address read from a header. */
  peer: string | undefined;
  /** A request header's value (names in lower case); null or undefined when absent. */
  header(name: "authorization" | "host" | (typeof FORWARDING_HEADERS)[number]): string | null | undefined;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Decides who reads `/metrics`. With a token set: exactly `Authorization: Bearer <token>`,
 * compared in constant time (both sides hashed first, so even the length is not leaked), else
 * `unauthorized`: the token decides, whatever the headers. Without one: only a loopback socket peer
 * that names a loopback `Host` (`localhost`, 127.0.0.0/8, `[::1]`, any port) and sends none of the
 * forwarding headers (`Forwarded`, `X-Forwarded-*`, `X-Real-IP`, `Via`, ...), else `forbidden`: a
 * reverse proxy on the same host would otherwise relay the world, and a DNS-rebound page in a
 * browser on this machine reaches loopback under its own host name.
 * @example const check = createMetricsAccess(env.METRICS_TOKEN); check({ peer, header }) === "allowed"
 */
export function createMetricsAccess(token: string | undefined): (request: MetricsRequest) => MetricsAccess {
  if (token === undefined) {
    return (request) =>
      isLoopback(request.peer) &&
      isLoopbackHost(request.header("host")) &&
      FORWARDING_HEADERS.every((name) => !present(request.header(name)))
        ? "allowed"
        : "forbidden";
  }
  const expected = digest(token);
  return (request) => {
    const presented = BEARER.exec(request.header("authorization") ?? "")?.[1];
    if (presented === undefined) return "unauthorized";
    return timingSafeEqual(digest(presented), expected) ? "allowed" : "unauthorized";
  };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = unmappedIpv4(address);
  return (isIP(plain) === 4 && plain.startsWith("127.")) || plain === "::1";
}

/** Whether a `Host` header names this machine by a loopback name: `localhost`, 127.0.0.0/8 or `[::1]`, with any port. */
function isLoopbackHost(host: string | null | undefined): boolean {
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/.exec(host ?? "");
  const name = match?.[1]?.toLowerCase();
  if (name === undefined) return false;
  if (name === "localhost" || name === "[::1]") return true;
  return isIP(name) === 4 && name.startsWith("127.");
}

function present(value: string | null | undefined): boolean {
  return value !== null && value !== undefined;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
