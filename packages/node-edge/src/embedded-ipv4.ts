import { isIP } from "node:net";

/**
 * The IPv6 forms that carry an IPv4 address, and where (docs/webhooks.md#which-urls; why: docs/decisions.md, "Webhook delivery"):
 * - `mapped`: IPv4-mapped `::ffff:0:0/96` (RFC 4291), how a dual-stack socket shows an IPv4 peer;
 * - `translated`: SIIT's IPv4-translated `::ffff:0:0:0/96` (RFC 2765);
 * - `compatible`: the deprecated IPv4-compatible `::/96` (RFC 4291), `::` and `::1` included;
 * - `nat64`: the NAT64 well-known prefix `64:ff9b::/96` (RFC 6052);
 * - `6to4`: `2002::/16`, the IPv4 address in bits 16-47 (RFC 3056).
 */
export type EmbeddingForm = "mapped" | "translated" | "compatible" | "nat64" | "6to4";

/** The IPv4 address an IPv6 address carries, in dotted decimal, and the form that carries it. */
export interface EmbeddedIpv4 {
  form: EmbeddingForm;
  ipv4: string;
}

/**
 * The eight 16-bit groups of an IPv6 address (any RFC 4291 text: `::`, leading zeros, a dotted IPv4
 * tail, either case), or undefined when `text` is not one (a zone id, brackets, an IPv4 address).
 * The URL parser does the reading: it serialises every valid form as compressed lower-case hex.
 */
export function ipv6Groups(text: string): number[] | undefined {
  if (isIP(text) !== 6) return undefined;
  const host = URL.parse(`http://[${text}]/`)?.hostname.slice(1, -1);
  if (host === undefined) return undefined;
  const [head = "", tail] = host.split("::");
  const read = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16));
  const left = read(head);
  if (tail === undefined) return left;
  const right = read(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function dotted(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The IPv4 address inside `address` when it is an IPv6 address of one of the embedding forms
 * (see EmbeddingForm), else undefined (an IPv4 address, any other IPv6 address, not an address).
 * @example embeddedIpv4("[2002:7f00:1::]".slice(1, -1)) // { form: "6to4", ipv4: "127.0.0.1" }
 * @example embeddedIpv4("::ffff:cb00:7163") // { form: "mapped", ipv4: "203.0.113.99" }
 */
export function embeddedIpv4(address: string): EmbeddedIpv4 | undefined {
  const g = ipv6Groups(address);
  if (g === undefined) return undefined;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  if (g0 === 0x2002) return { form: "6to4", ipv4: dotted(g1, g2) };
  const middleZero = g2 === 0 && g3 === 0;
  if (g0 === 0x64 && g1 === 0xff9b && middleZero && g4 === 0 && g5 === 0) {
    return { form: "nat64", ipv4: dotted(g6, g7) };
  }
  if (g0 !== 0 || g1 !== 0 || !middleZero) return undefined;
  if (g4 === 0 && g5 === 0xffff) return { form: "mapped", ipv4: dotted(g6, g7) };
  if (g4 === 0xffff && g5 === 0) return { form: "translated", ipv4: dotted(g6, g7) };
  if (g4 === 0 && g5 === 0) return { form: "compatible", ipv4: dotted(g6, g7) };
  return undefined;
}

const DOTTED_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * An IPv4-mapped address (`::ffff:0:0/96`, written dotted or in hex) as the IPv4 address it is;
 * anything else as it was. Only the mapped form names the same host as its IPv4 address (a
 * dual-stack socket's IPv4 peer); the other embedding forms are IPv6 hosts of their own.
 * @example unmappedIpv4("::ffff:cb00:7163") // "203.0.113.99"
 * @example unmappedIpv4("2001:db8::1") // "2001:db8::1"
 */
export function unmappedIpv4(address: string): string {
  if (!address.includes(":")) return address;
  // The form every dual-stack socket reports, answered without parsing the whole address.
  const plain = DOTTED_MAPPED.exec(address)?.[1];
  if (plain !== undefined && isIP(plain) === 4) return plain;
  const embedded = embeddedIpv4(address);
  return embedded?.form === "mapped" ? embedded.ipv4 : address;
}
