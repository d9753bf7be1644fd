import { parseIp } from "../schemas/ip-address.js";
import { type IpBlock, parseIpBlock } from "../schemas/ip-block.js";

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
  const blocks: IpBlock[] = [];
  for (const entry of entries) {
    const block = parseIpBlock(entry);
    if (block !== null) blocks.push(block);
  }
  return {
    allows(ip) {
      const parsed = parseIp(ip);
      if (parsed === null) return false;
      const w = parsed.words;
      for (const { network: n, mask: m } of blocks) {
        if (
          (w[3] & m[3]) >>> 0 === n[3] &&
          (w[2] & m[2]) >>> 0 === n[2] &&
          (w[1] & m[1]) >>> 0 === n[1] &&
          (w[0] & m[0]) >>> 0 === n[0]
        )
          return true;
      }
      return false;
    },
  };
}
