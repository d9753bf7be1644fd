import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook may never reach unless WEBHOOKS_ALLOW_PRIVATE is set (docs/webhooks.md,
 * "Which URLs"): this host, private networks, link-local (where cloud metadata services answer,
 * 169.254.169.254 and fd00:ec2::254), carrier-grade NAT, multicast and reserved ranges, in IPv4
 * and IPv6, including IPv4 written inside IPv6 (mapped and NAT64).
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

/** The IPv4 address inside an IPv6 one (`::ffff:a.b.c.d`, `::a.b.c.d`, `64:ff9b::a.b.c.d`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted?.[1] !== undefined) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] === undefined || hex[2] === undefined) return undefined;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * True when `address` (an IP literal, as DNS answered it) is a public unicast address a webhook may
 * be sent to. Anything that is not a valid IP literal is not public.
 * @example isPublicAddress("93.184.216.34") // true
 * @example isPublicAddress("::ffff:127.0.0.1") // false
 */
export function isPublicAddress(address: string): boolean {
  const unbracketed = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const family = isIP(unbracketed);
  if (family === 4) return !blocked.check(unbracketed, "ipv4");
  if (family !== 6) return false;
  const inner = embeddedIpv4(unbracketed);
  if (inner !== undefined) return isIP(inner) === 4 && !blocked.check(inner, "ipv4");
  return !blocked.check(unbracketed, "ipv6");
}
