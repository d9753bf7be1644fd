import { readIp } from "../schemas/ip-address.js";
import { parseIpBlock } from "../schemas/ip-block.js";

/** A key's allow-list, compiled once when the key is loaded: answering costs parsing the address alone. */
export interface IpAllowList {
  /** Whether `ip` (an IPv4 or IPv6 address) lies in one of the blocks; false for anything that is no address. */
  allows(ip: string): boolean;
}

/**
 * Compiles stored (normalised) entries into a matcher. An IPv4-mapped IPv6 address (`::ffff:10.1.2.3`)
 * matches its IPv4 block. Entries that do not parse (none are stored) match nothing.
 * @example compileIpAllowList(["10.0.0.0/8"]).allows("::ffff:10.9.9.9") // true
 */
export function compileIpAllowList(entries: readonly string[]): IpAllowList {
  // Network and mask words of every block in one flat array: eight numbers a block.
  const flat: number[] = [];
  for (const entry of entries) {
    const block = parseIpBlock(entry);
    if (block !== null) flat.push(...block.network, ...block.mask);
  }
  const words = [0, 0, 0, 0];
  return {
    allows(ip) {
      if (readIp(ip, words) === 0) return false;
      const w0 = words[0] ?? 0;
      const w1 = words[1] ?? 0;
      const w2 = words[2] ?? 0;
      const w3 = words[3] ?? 0;
      for (let b = 0; b < flat.length; b += 8) {
        // The last word first: it is where IPv4 blocks (and most IPv6 hosts) differ.
        if (
          (w3 & (flat[b + 7] ?? 0)) >>> 0 === flat[b + 3] &&
          (w2 & (flat[b + 6] ?? 0)) >>> 0 === flat[b + 2] &&
          (w1 & (flat[b + 5] ?? 0)) >>> 0 === flat[b + 1] &&
          (w0 & (flat[b + 4] ?? 0)) >>> 0 === flat[b]
        )
          return true;
      }
      return false;
    },
  };
}
