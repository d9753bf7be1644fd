/**
 * An address as 128 bits in four unsigned 32-bit words, most significant first. An IPv4 address is
 * held as its IPv4-mapped IPv6 form (`::ffff:a.b.c.d`), so an IPv4 block and a mapped address meet in
 * one comparison (docs/verifying-keys.md#ip-allow-lists).
 */
export type IpWords = readonly [number, number, number, number];

/** The first 96 bits of every IPv4-mapped address: `::ffff:0:0/96`. */
const MAPPED_HIGH = 0xffff;

const DECIMAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** An IPv4 address in dotted decimal (no leading zeros, which some parsers read as octal), or null. */
function parseIpv4Number(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!DECIMAL_OCTET.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Eight 16-bit groups of an IPv6 address (RFC 4291 text, a trailing dotted IPv4 allowed), or null. */
function parseIpv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string, last: boolean): number[] | null => {
    if (half === "") return [];
    const parts = half.split(":");
    const groups: number[] = [];
    for (const [index, part] of parts.entries()) {
      if (last && index === parts.length - 1 && part.includes(".")) {
        const v4 = parseIpv4Number(part);
        if (v4 === null) return null;
        groups.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (HEX_GROUP.test(part)) groups.push(Number.parseInt(part, 16));
      else return null;
    }
    return groups;
  };
  const [head = "", tail] = halves;
  const front = groupsOf(head, tail === undefined);
  if (front === null) return null;
  if (tail === undefined) return front.length === 8 ? front : null;
  const back = groupsOf(tail, true);
  if (back === null || front.length + back.length > 7) return null;
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The family an address was written in and its 128 bits. */
export interface ParsedIp {
  /** 4 when written as dotted IPv4, 6 otherwise (a mapped IPv6 address is 6). */
  family: 4 | 6;
  words: IpWords;
}

/**
 * Parses an IPv4 (dotted decimal) or IPv6 address; null for anything else (a zone id, a port,
 * brackets, spaces, leading zeros in IPv4).
 * @example parseIp("10.1.2.3")?.words // [0, 0, 0xffff, 0x0a010203]
 */
export function parseIp(text: string): ParsedIp | null {
  if (text.length > 45) return null;
  if (!text.includes(":")) {
    const v4 = parseIpv4Number(text);
    return v4 === null ? null : { family: 4, words: [0, 0, MAPPED_HIGH, v4] };
  }
  const groups = parseIpv6Groups(text);
  if (groups === null) return null;
  const word = (i: number) => ((groups[i] ?? 0) * 65536 + (groups[i + 1] ?? 0)) >>> 0;
  return { family: 6, words: [word(0), word(2), word(4), word(6)] };
}

/** Whether `words` lie in `::ffff:0:0/96` (an IPv4 address). */
export function isMappedIpv4(words: IpWords): boolean {
  return words[0] === 0 && words[1] === 0 && words[2] === MAPPED_HIGH;
}

/** Dotted decimal of the low 32 bits. */
export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

/** RFC 5952 text: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
export function formatIpv6(words: IpWords): string {
  const groups = words.flatMap((word) => [word >>> 16, word & 0xffff]);
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((group) => group.toString(16))
      .join(":");
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}
