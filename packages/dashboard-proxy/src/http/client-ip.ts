import { BlockList, isIP } from "node:net";

/** The proxies whose `X-Forwarded-For` the proxy believes, built once from `TRUSTED_PROXIES`. */
export interface TrustedProxies {
  has(address: string): boolean;
}

/**
 * The trusted set of `TRUSTED_PROXIES` entries (addresses or CIDR blocks, validated by env.ts).
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
      const plain = unmapped(address);
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
 * trusted. Undefined when the peer is unknown or the chosen entry is not an IP address.
 * @example clientAddress("127.0.0.1", "203.0.113.7, 127.0.0.1", trusted) // "203.0.113.7"
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  trusted: TrustedProxies,
): string | undefined {
  if (peer === undefined || peer === "") return undefined;
  if (!trusted.has(peer) || forwardedFor === null) return unmapped(peer);
  const hops = forwardedFor
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index] ?? "";
    if (index === 0 || !trusted.has(hop)) return isIP(unmapped(hop)) === 0 ? undefined : unmapped(hop);
  }
  return unmapped(peer);
}

function unmapped(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
