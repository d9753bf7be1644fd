import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import { unmappedIpv4 } from "./embedded-ipv4.js";

/** The proxies whose `X-Forwarded-For` a server believes, built once from `TRUSTED_PROXIES`. */
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
 * @example createTrustedProxies(["127.0.0.1", "::1", "10.0.0.0/8"]).has("10.1.2.3") // true
 */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  // Every request asks about its socket peer, and peers repeat: BlockList.check builds a
  // SocketAddress per call, so verdicts are remembered (the set is reset when it grows past 1,024).
  const known = new Map<string, boolean>();
  return {
    has: (address) => {
      const remembered = known.get(address);
      if (remembered !== undefined) return remembered;
      const plain = unmappedIpv4(address);
      const family = isIP(plain);
      const trusted = family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
      if (known.size >= 1_024) known.clear();
      known.set(address, trusted);
      return trusted;
    },
  };
}

/**
 * The client's address: the socket peer when it is not a trusted proxy; otherwise the right-most
 * `X-Forwarded-For` entry that is not trusted (each proxy appends the peer it saw, so entries left of
 * the first untrusted one are whatever the client wrote), or the left-most entry when every hop is
 * trusted (the peer when the header is absent or empty). Undefined when the peer is unknown (the
 * socket has closed) or the chosen entry is not an IP address. IPv4-mapped IPv6 addresses, dotted or
 * hex (`::ffff:cb00:7163`), come back as IPv4 (embedded-ipv4.ts). `forwardedFor` may be a list: node's types allow one for a repeated header.
 * @example clientAddress("127.0.0.1", "203.0.113.7, 127.0.0.1", trusted) // "203.0.113.7"
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | readonly string[] | null | undefined,
  trusted: TrustedProxies,
): string | undefined {
  if (peer === undefined || peer === "") return undefined;
  if (forwardedFor === null || forwardedFor === undefined || !trusted.has(peer)) return unmappedIpv4(peer);
  const hops = (typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(","))
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index] ?? "";
    if (index === 0 || !trusted.has(hop)) return isIP(hop) === 0 ? undefined : unmappedIpv4(hop);
  }
  return unmappedIpv4(peer);
}

/**
 * The address of the client that sent a node request (see {@link clientAddress}).
 * @example requestClientAddress(req, createTrustedProxies(env.TRUSTED_PROXIES)) // "203.0.113.7"
 */
export function requestClientAddress(req: IncomingMessage, trusted: TrustedProxies): string | undefined {
  return clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted);
}
