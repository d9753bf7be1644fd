import { isIP } from "node:net";

/**
 * Whose share of the upstream budget a request draws on: its client's IPv4 address, or its IPv6 /64
 * as `a:b:c:d::/64` (one subscriber usually holds a whole /64, so counting single IPv6 addresses
 * would let one client rotate past its share). Requests whose address is unknown share one key.
 * @example shareKey("2001:db8:0:1::7") // "2001:db8:0:1::/64"
 */
export function shareKey(clientIp: string | undefined): string {
  // A zone id (`fe80::1%eth0`) names an interface, not a host.
  const address = clientIp?.split("%")[0] ?? "";
  const family = isIP(address);
  if (family === 4) return address;
  if (family === 6) return prefix64(address);
  return "unknown";
}

/** The first 64 bits of an IPv6 address, groups in lower-case hex without leading zeros. */
function prefix64(address: string): string {
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
