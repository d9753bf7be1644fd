import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** The proxies whose `X-Forwarded-For` the server believes: built once from `TRUSTED_PROXIES`. */
export interface TrustedProxies {
  has(address: string): boolean;
}

/**
 * Whether a `TRUSTED_PROXIES` entry is usable: an IPv4 or IPv6 address, or a CIDR block of one
 * (`10.0.0.0/8`, `fd00::/8`).
 */
export function isTrustedProxyEntry(entry: string): boolean {
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The trusted set of `TRUSTED_PROXIES` entries (checked by {@link isTrustedProxyEntry}).
 * IPv4-mapped IPv6 peers (`::ffff:127.0.0.1`) match their IPv4 entries.
 * @example const trusted = createTrustedProxies(["127.0.0.1", "::1"]);
 */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return {
    has: (address) => {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
    },
  };
}

/**
 * The address of the client that sent `req`: the socket's peer when it is not a trusted proxy;
 * otherwise the right-most `X-Forwarded-For` entry that is not trusted (each proxy appends the
 * peer it saw, so entries left of the first untrusted one are whatever the client wrote), or the
 * left-most entry when every hop is trusted (the peer when the header is empty). Undefined when the socket has closed or the entry it
 * lands on is not an IP address. IPv4-mapped IPv6 addresses come back as IPv4.
 * @example clientIp(req, createTrustedProxies(env.TRUSTED_PROXIES)) // "203.0.113.7"
 */
export function clientIp(req: IncomingMessage, trusted: TrustedProxies): string | undefined {
  const peer = req.socket.remoteAddress;
  if (peer === undefined) return undefined;
  const header = req.headers["x-forwarded-for"];
  if (!trusted.has(peer) || header === undefined) return unmapped(peer);
  // Node joins repeated X-Forwarded-For headers with ", ", but its types allow a list.
  const hops = (Array.isArray(header) ? header.join(",") : header)
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index] ?? "";
    if (index === 0 || !trusted.has(hop)) return isIP(hop) === 0 ? undefined : unmapped(hop);
  }
  return unmapped(peer);
}

function unmapped(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
