import { BlockList, isIP } from "node:net";
import { embeddedIpv4 } from "@keyport/node-edge";

/**
 * Addresses a webhook may never reach unless WEBHOOKS_ALLOW_PRIVATE is set (docs/webhooks.md,
 * "Which URLs"): this host, private networks, link-local (where cloud metadata services answer,
 * 169.254.169.254 and fd00:ec2::254), carrier-grade NAT, multicast and reserved ranges, in IPv4
 * and IPv6. An IPv6 address that carries an IPv4 one (mapped, SIIT, IPv4-compatible, NAT64, 6to4:
 * @keyport/node-edge's embedded-ipv4.ts) is judged by that IPv4 address alone.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/**
 * True when `address` (an IP literal, as DNS answered it) is a public unicast address a webhook may
 * be sent to. Anything that is not a valid IP literal is not public.
 * @example isPublicAddress("93.184.216.34") // true
 * @example isPublicAddress("::ffff:127.0.0.1") // false
 * @example isPublicAddress("2002:808:808::1") // true (6to4 of 8.8.8.8)
 */
export function isPublicAddress(address: string): boolean {
  const unbracketed = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const family = isIP(unbracketed);
  if (family === 4) return !blocked.check(unbracketed, "ipv4");
  if (family !== 6) return false;
  const inner = embeddedIpv4(unbracketed);
  if (inner !== undefined) return !blocked.check(inner.ipv4, "ipv4");
  return !blocked.check(unbracketed, "ipv6");
}
