/**
 * An address as 128 bits in four unsigned 32-bit words, most significant first. An IPv4 address is
 * held as its IPv4-mapped IPv6 form (`::ffff:a.b.c.d`), so an IPv4 block and a mapped address meet in
 * one comparison (docs/verifying-keys.md#ip-allow-lists).
 */
export type IpWords = readonly [number, number, number, number];

/** The first 96 bits of every IPv4-mapped address: `::ffff:0:0/96`. */
const MAPPED_HIGH = 0xffff;
const DOT = 46;
const COLON = 58;

/**
 * The IPv4 address in dotted decimal from `start` to the end of `text` (no leading zeros, which some
 * parsers read as octal), or -1. Scans character codes: no regex, no split, no allocation.
 */
function readIpv4(text: string, start: number): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let parts = 0;
  for (let i = start; i <= text.length; i++) {
    // The end of the text closes the last octet as a dot would.
    const code = i < text.length ? text.charCodeAt(i) : DOT;
    if (code >= 48 && code <= 57) {
      if (digits === 1 && octet === 0) return -1;
      octet = octet * 10 + (code - 48);
      digits++;
      if (digits > 3 || octet > 255) return -1;
    } else if (code === DOT) {
      if (digits === 0 || parts === 4) return -1;
      value = value * 256 + octet;
      parts++;
      octet = 0;
      digits = 0;
    } else return -1;
  }
  return parts === 4 ? value : -1;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Reads an IPv6 address (RFC 4291 text, a trailing dotted IPv4 allowed) into eight 16-bit groups. */
function readIpv6(text: string, groups: number[]): boolean {
  const n = text.length;
  let count = 0;
  let gap = -1;
  let i = 0;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return false;
    gap = 0;
    i = 2;
  }
  while (i < n) {
    let value = 0;
    let digits = 0;
    let j = i;
    for (; j < n; j++) {
      const digit = hexValue(text.charCodeAt(j));
      if (digit < 0) break;
      value = value * 16 + digit;
      if (++digits > 4) return false;
    }
    if (j < n && text.charCodeAt(j) === DOT) {
      if (count > 6) return false;
      const v4 = readIpv4(text, i);
      if (v4 < 0) return false;
      groups[count++] = Math.floor(v4 / 65536);
      groups[count++] = v4 % 65536;
      break;
    }
    if (digits === 0 || count === 8) return false;
    groups[count++] = value;
    if (j === n) break;
    if (text.charCodeAt(j) !== COLON) return false;
    if (text.charCodeAt(j + 1) === COLON) {
      if (gap >= 0) return false;
      gap = count;
      i = j + 2;
    } else {
      i = j + 1;
      if (i === n) return false;
    }
  }
  if (gap < 0) return count === 8;
  if (count > 7) return false;
  // Move the groups after `::` to the end and fill the gap with zeros (highest first: the ranges overlap).
  const tail = count - gap;
  for (let k = 0; k < tail; k++) groups[7 - k] = groups[count - 1 - k] ?? 0;
  for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  return true;
}

const scratch = [0, 0, 0, 0, 0, 0, 0, 0];

/**
 * Reads an address into `words` (four 32-bit words, see IpWords) without allocating; answers its
 * family (4 for dotted IPv4, 6 for IPv6 text) or 0 when `text` is no address (a zone id, a port,
 * brackets, spaces, leading zeros in IPv4).
 */
export function readIp(text: string, words: number[]): 0 | 4 | 6 {
  if (text.length > 45 || text.length === 0) return 0;
  if (text.indexOf(":") < 0) {
    const v4 = readIpv4(text, 0);
    if (v4 < 0) return 0;
    words[0] = 0;
    words[1] = 0;
    words[2] = MAPPED_HIGH;
    words[3] = v4;
    return 4;
  }
  if (!readIpv6(text, scratch)) return 0;
  for (let w = 0; w < 4; w++) words[w] = ((scratch[2 * w] ?? 0) * 65536 + (scratch[2 * w + 1] ?? 0)) >>> 0;
  return 6;
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
  const words = [0, 0, 0, 0];
  const family = readIp(text, words);
  if (family === 0) return null;
  return { family, words: [words[0] ?? 0, words[1] ?? 0, words[2] ?? 0, words[3] ?? 0] };
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
