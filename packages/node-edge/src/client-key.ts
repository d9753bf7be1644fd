import { isIP } from "node:net";
import { ipv6Groups, unmappedIpv4 } from "./embedded-ipv4.js";

/**
 * Who a per-client limit counts: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber usually holds a whole /64, so counting single addresses would let one client rotate
 * past any limit), and every request whose address is unknown as one client, `unknown`.
 * @example clientLimitKey("2001:db8:0:1::7") // "2001:db8:0:1::/64"
 */
export function clientLimitKey(address: string | undefined): string {
  // A zone id (`fe80::1%eth0`) names an interface, not a host.
  const plain = unmappedIpv4(address?.split("%")[0] ?? "");
  if (isIP(plain) === 4) return plain;
  const groups = ipv6Groups(plain);
  if (groups === undefined) return "unknown";
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
