import { isIP } from "node:net";

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
 * Who a per-client limit counts: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber usually holds a whole /64, so counting single addresses would let one client rotate
 * past any limit), and every request whose address is unknown as one client, `unknown`.
 * @example clientLimitKey("2001:db8:0:1::7") // "2001:db8:0:1::/64"
 */
export function clientLimitKey(address: string | undefined): string {
  // A zone id (`fe80::1%eth0`) names an interface, not a host.
  const plain = address?.split("%")[0] ?? "";
  const family = isIP(plain);
  if (family === 4) return plain;
  if (family === 6) return ipv6Prefix64(plain);
  return "unknown";
}
