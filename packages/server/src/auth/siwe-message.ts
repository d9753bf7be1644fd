import { isIPv6 } from "node:net";

/**
 * An EIP-4361 message read by {@link parseSiweMessage}. Values are as written: `address` is not yet
 * checked against EIP-55, `domain` and `uri` not yet against the deployment's domains.
 */
export interface SiweMessageFields {
  /** The optional scheme before the domain (`https` in `https://example.com wants you ...`). */
  scheme: string | undefined;
  /** The RFC 3986 authority that asks for the signature. */
  domain: string;
  address: `0x${string}`;
  statement: string | undefined;
  uri: string;
  /** The URI's authority (`host[:port]`, userinfo included), or undefined when it has none. */
  uriAuthority: string | undefined;
  version: string;
  /** `1*DIGIT` read as a number (digits beyond a safe integer make it unusable, never wrong). */
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date | undefined;
  notBefore: Date | undefined;
  requestId: string | undefined;
  resources: string[] | undefined;
}

// RFC 3986 character classes, as regular-expression sources.
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT_ENCODED = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT_ENCODED})`;
const SCHEME = "[A-Za-z][A-Za-z0-9+\\-.]*";
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT_ENCODED})*`;
// IP-literal is checked further by isIpLiteral; IPv4address is a reg-name syntactically.
const HOST = `(?:\\[[^\\]\\s]*\\]|(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT_ENCODED})*)`;
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::[0-9]*)?`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const QUERY = `(?:${PCHAR}|[/?])*`;

const AUTHORITY_RE = new RegExp(`^(?:(${USERINFO})@)?(${HOST})(?::[0-9]*)?$`);
const URI_RE = new RegExp(
  `^(${SCHEME}):(?://(${AUTHORITY})(?:/${SEGMENT})*|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?|${SEGMENT_NZ}(?:/${SEGMENT})*|)(?:\\?${QUERY})?(?:#${QUERY})?$`,
);
const HEADER_RE = new RegExp(
  `^(?:(${SCHEME})://)?(${AUTHORITY}) wants you to sign in with your Ethereum account:$`,
);
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
// RFC 3986 reserved / unreserved / " ": any printable ASCII but " % < > \ ^ ` { | } and no line break.
const STATEMENT_RE = new RegExp(`^[${UNRESERVED}${SUB_DELIMS}:/?#\\[\\]@ ]*$`);
const CHAIN_ID_RE = /^[0-9]+$/;
const NONCE_RE = /^[A-Za-z0-9]{8,}$/;
const REQUEST_ID_RE = new RegExp(`^${PCHAR}*$`);
// RFC 3339 date-time; "T" and "Z" may be lower case (section 5.6). Ranges are checked by parseDateTime.
const DATE_TIME_RE =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;

/** True when an IP-literal (`[...]`) holds an IPv6 address or an IPvFuture, as RFC 3986 allows. */
function isIpLiteral(host: string): boolean {
  if (!host.startsWith("[")) return true;
  const inner = host.slice(1, -1);
  if (/^[vV]/.test(inner))
    return new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`).test(inner);
  return /^[0-9A-Fa-f:.]+$/.test(inner) && isIPv6(inner);
}

function isAuthority(value: string): boolean {
  const match = AUTHORITY_RE.exec(value);
  return match !== null && isIpLiteral(match[2] ?? "");
}

/** An RFC 3986 URI's authority ("" when empty, undefined when it has none), or null when it is no URI. */
function readUri(value: string): { authority: string | undefined } | null {
  const match = URI_RE.exec(value);
  if (match === null) return null;
  const authority = match[2];
  if (authority !== undefined && !isAuthority(authority)) return null;
  return { authority };
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Reads an RFC 3339 `date-time` (any valid offset, any number of fractional digits, kept to the
 * millisecond; a leap second `:60` counts as the next second), or undefined when it is not one.
 * @example parseDateTime("2026-11-23T20:03:36.5+05:30")?.toISOString() // "2026-11-23T14:33:36.500Z"
 */
export function parseDateTime(value: string): Date | undefined {
  const match = DATE_TIME_RE.exec(value);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [, , , , , , , fraction = "", sign, offsetHour = "00", offsetMinute = "00"] = match;
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined ||
    second === undefined
  )
    return undefined;
  const offsetMinutes = Number(offsetHour) * 60 + Number(offsetMinute);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60 || Number(offsetHour) > 23 || Number(offsetMinute) > 59)
    return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, "0").slice(0, 3)));
  const offsetMs = (sign === "-" ? -1 : 1) * offsetMinutes * 60_000;
  return new Date(date.getTime() - offsetMs);
}

/** Why a text is not an EIP-4361 message: the first line that does not fit the grammar. */
export interface SiweSyntaxError {
  /** 1-based line number (one past the last line when the message ends too early). */
  line: number;
  /** What the grammar wanted there, e.g. `"Chain ID: " chain-id` or `the end of the message`. */
  expected: string;
}

export type SiweParse = { ok: true; fields: SiweMessageFields } | { ok: false; error: SiweSyntaxError };

/**
 * Reads a Sign-In with Ethereum message exactly as the EIP-4361 ABNF writes it: the header with an
 * optional scheme, the address, a blank line, an optional statement and a blank line, then `URI`,
 * `Version`, `Chain ID`, `Nonce`, `Issued At`, then optionally `Expiration Time`, `Not Before`,
 * `Request ID` and `Resources` (with `- uri` lines), in that order, each at most once, lines joined
 * by LF and nothing before, between or after them: no trailing LF, as the ABNF ends without one.
 * Unlike viem's `parseSiweMessage`, which picks fields out of any text, anything else is refused.
 * @example parseSiweMessage(createSiweMessage({ ... })).ok // true
 */
export function parseSiweMessage(text: string): SiweParse {
  const lines = text.split("\n");
  const header = HEADER_RE.exec(lines[0] ?? "");
  if (header === null || !isAuthority(header[2] ?? "")) {
    return {
      ok: false,
      error: { line: 1, expected: 'domain " wants you to sign in with your Ethereum account:"' },
    };
  }
  let index = 1;
  let failure: SiweSyntaxError | undefined;
  /** The current line's value after `prefix`, read by `read`; moves on, or records the failure. */
  const field = <T>(prefix: string, rule: string, read: (value: string) => T | undefined): T | undefined => {
    const line = lines[index];
    const value = line?.startsWith(prefix) ? read(line.slice(prefix.length)) : undefined;
    if (value === undefined) {
      failure ??= { line: index + 1, expected: `"${prefix}" ${rule}`.replace(/^"" /, "") };
      return undefined;
    }
    index++;
    return value;
  };
  const optional = <T>(prefix: string, rule: string, read: (value: string) => T | undefined) =>
    failure === undefined && lines[index]?.startsWith(prefix) ? field(prefix, rule, read) : undefined;
  const matching = (rule: RegExp) => (value: string) => (rule.test(value) ? value : undefined);
  const blank = () => field("", "an empty line", (value) => (value === "" ? value : undefined));
  const uri = (value: string) => (readUri(value) === null ? undefined : value);

  const address = field("", "address", matching(ADDRESS_RE));
  blank();
  // `[ statement LF ] LF`: without a statement, the URI follows two empty lines.
  const hasStatement = lines[index] !== "" || lines[index + 1] === "";
  const statement = hasStatement ? field("", "statement", matching(STATEMENT_RE)) : undefined;
  blank();
  const fields = {
    uri: field("URI: ", "uri", uri),
    version: field("Version: ", "version", matching(/^\S+$/)),
    chainId: field("Chain ID: ", "chain-id", matching(CHAIN_ID_RE)),
    nonce: field("Nonce: ", "nonce", matching(NONCE_RE)),
    issuedAt: field("Issued At: ", "date-time", parseDateTime),
    expirationTime: optional("Expiration Time: ", "date-time", parseDateTime),
    notBefore: optional("Not Before: ", "date-time", parseDateTime),
    requestId: optional("Request ID: ", "request-id", matching(REQUEST_ID_RE)),
    resources: optional("Resources:", "", (value): string[] | undefined => (value === "" ? [] : undefined)),
  };
  while (fields.resources !== undefined && failure === undefined && index < lines.length) {
    const resource = field("- ", "URI", uri);
    if (resource !== undefined) fields.resources.push(resource);
  }
  if (failure === undefined && index < lines.length)
    failure = { line: index + 1, expected: "the end of the message" };

  const { uri: uriValue, version, chainId, nonce, issuedAt } = fields;
  if (
    failure !== undefined ||
    address === undefined ||
    uriValue === undefined ||
    version === undefined ||
    chainId === undefined ||
    nonce === undefined ||
    issuedAt === undefined
  ) {
    return { ok: false, error: failure ?? { line: index + 1, expected: "a required field" } };
  }
  return {
    ok: true,
    fields: {
      ...fields,
      scheme: header[1],
      domain: header[2] ?? "",
      address: `0x${address.slice(2)}`,
      statement,
      uri: uriValue,
      uriAuthority: readUri(uriValue)?.authority,
      version,
      chainId: Number(chainId),
      nonce,
      issuedAt,
    },
  };
}
