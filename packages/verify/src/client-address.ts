// The end client's address a middleware sends Keyport as `ip` (docs/verifying-keys.md#ip-allow-lists).

const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$/;
const IPV6_CHARACTERS = /^[0-9a-fA-F:.]{2,45}$/;
const BRACKETED = /^\[([^\]]+)\](?::[0-9]{1,5})?$/;
const IPV4_WITH_PORT = /^([0-9.]+):[0-9]{1,5}$/;

/**
 * An address as Keyport reads one, or undefined: brackets and a port (`[::1]:443`, `10.1.2.3:80`, as
 * some proxies write them) and an IPv6 zone (`fe80::1%eth0`, as a link-local socket reports it) are
 * dropped; anything that is plainly no IPv4 or IPv6 address is undefined.
 */
export function cleanAddress(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  let address = text.trim();
  address = BRACKETED.exec(address)?.[1] ?? IPV4_WITH_PORT.exec(address)?.[1] ?? address;
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  if (IPV4.test(address)) return address;
  return address.includes(":") && IPV6_CHARACTERS.test(address) ? address : undefined;
}

/**
 * The client's address: the socket's peer; with `trustProxy`, the last (right-most) entry of
 * `X-Forwarded-For` instead when the header is present, which is the address the one proxy in front
 * of the backend saw (what Express's `trust proxy` set to 1 hop takes). Entries to its left were
 * written by the client or earlier hops and are never read: a client cannot choose its own address.
 * A last entry that is no address gives undefined (never the proxy's own address). Several
 * `X-Forwarded-For` headers count as one list, in order.
 * @example clientAddress("10.0.0.2", "203.0.113.7, 198.51.100.1", true) // "198.51.100.1"
 */
export function clientAddress(
  peer: string | null | undefined,
  forwardedFor: string | null | undefined,
  trustProxy: boolean,
): string | undefined {
  if (trustProxy && forwardedFor) {
    const entries = forwardedFor.split(",");
    return cleanAddress(entries[entries.length - 1]);
  }
  return cleanAddress(peer);
}
