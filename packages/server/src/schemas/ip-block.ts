import { formatIpv4, formatIpv6, type IpWords, isMappedIpv4, parseIp } from "./ip-address.js";

/** Most entries a key's `allowedIps` holds. */
export const MAX_ALLOWED_IPS = 100;

/** A block of addresses: its network (host bits cleared) and mask, as 128-bit words (see IpWords). */
export interface IpBlock {
  network: IpWords;
  mask: IpWords;
  /** Prefix length over all 128 bits (an IPv4 /8 is 104). */
  prefix: number;
}

const PREFIX = /^(?:0|[1-9][0-9]{0,2})$/;

function maskOf(prefix: number): IpWords {
  const word = (i: number) => {
    const bits = Math.min(32, Math.max(0, prefix - i * 32));
    return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  };
  return [word(0), word(1), word(2), word(3)];
}

/**
 * Parses an entry of `allowedIps`: an IPv4 or IPv6 address or CIDR block (`10.0.0.0/8`,
 * `2001:db8::/32`); a bare address is one address (/32 or /128). Host bits are cleared. Null for
 * anything else.
 */
export function parseIpBlock(text: string): IpBlock | null {
  const slash = text.indexOf("/");
  const address = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (address === null) return null;
  const width = address.family === 4 ? 32 : 128;
  let prefix = width;
  if (slash >= 0) {
    const digits = text.slice(slash + 1);
    if (!PREFIX.test(digits)) return null;
    prefix = Number(digits);
    if (prefix > width) return null;
  }
  // An IPv4 block lies in the mapped range: its prefix counts the 96 bits before it.
  const fullPrefix = address.family === 4 ? prefix + 96 : prefix;
  const mask = maskOf(fullPrefix);
  const w = address.words;
  const network: IpWords = [
    (w[0] & mask[0]) >>> 0,
    (w[1] & mask[1]) >>> 0,
    (w[2] & mask[2]) >>> 0,
    (w[3] & mask[3]) >>> 0,
  ];
  return { network, mask, prefix: fullPrefix };
}

/** The stored text of a block: IPv4 (a mapped block of /96 or longer too) or RFC 5952 IPv6, always with its prefix. */
function formatBlock(block: IpBlock): string {
  if (block.prefix >= 96 && isMappedIpv4(block.network))
    return `${formatIpv4(block.network[3])}/${block.prefix - 96}`;
  return `${formatIpv6(block.network)}/${block.prefix}`;
}

/**
 * The normalised form of an `allowedIps` entry, or null when it is not an address or CIDR block.
 * @example normaliseIpBlock("10.1.2.3/8") // "10.0.0.0/8"
 * @example normaliseIpBlock("2001:DB8:0:0::1") // "2001:db8::1/128"
 * @example normaliseIpBlock("::ffff:10.1.2.3") // "10.1.2.3/32"
 */
export function normaliseIpBlock(text: string): string | null {
  const block = parseIpBlock(text);
  return block === null ? null : formatBlock(block);
}
