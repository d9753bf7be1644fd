import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { MAX_WEBHOOK_URL_LENGTH } from "../schemas/webhook.js";
import { isPublicAddress } from "./address-policy.js";

/** Answers every address a name resolves to, as `dns.lookup(name, { all: true })` does. */
export type LookupAddresses = (hostname: string) => Promise<ReadonlyArray<{ address: string }>>;

/** How long create and PATCH wait for DNS before taking a name as not resolving (checked again at send). */
export const TARGET_LOOKUP_TIMEOUT_MS = 2_000;

/** What a host resolves to, judged by the address policy (webhooks/address-policy.ts). */
export type ResolvedTarget =
  /** Every address is public: connect to one of these (never resolve again, so DNS cannot rebind). */
  | { kind: "public"; addresses: string[] }
  /** The host is, or resolves to at least one, address a webhook may not reach. */
  | { kind: "refused"; literal: boolean }
  /** The name does not resolve (or not within the timeout). */
  | { kind: "unresolved" };

/** The system resolver (`getaddrinfo`, so /etc/hosts counts), every address. */
export const systemLookup: LookupAddresses = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function withTimeout<T>(pending: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves `hostname` (as `URL.hostname` spells it: IPv6 in brackets) and judges every address it
 * resolves to: a host is public only when all of them are, since a client may connect to any.
 * `localhost` and `*.localhost` are loopback without asking DNS (RFC 6761). An IP literal is judged
 * as is. The delivery engine calls this before every send and connects to an address it returned.
 * @example await resolvePublicAddresses("example.com", systemLookup) // { kind: "public", addresses: ["93.184.215.14"] }
 */
export async function resolvePublicAddresses(
  hostname: string,
  lookup: LookupAddresses,
  timeoutMs: number = TARGET_LOOKUP_TIMEOUT_MS,
): Promise<ResolvedTarget> {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const unbracketed = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (isIP(unbracketed) !== 0) {
    return isPublicAddress(unbracketed)
      ? { kind: "public", addresses: [unbracketed] }
      : { kind: "refused", literal: true };
  }
  if (host === "localhost" || host.endsWith(".localhost")) return { kind: "refused", literal: true };
  const answers = await withTimeout(
    lookup(host).catch(() => undefined),
    timeoutMs,
  );
  if (answers === undefined || answers.length === 0) return { kind: "unresolved" };
  const addresses = answers.map((answer) => answer.address);
  if (!addresses.every(isPublicAddress)) return { kind: "refused", literal: false };
  return { kind: "public", addresses };
}

/** Options of {@link checkWebhookTarget}. */
export interface TargetPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE: plain http and any address. */
  allowPrivate: boolean;
  lookup: LookupAddresses;
  timeoutMs?: number;
}

/**
 * Why `url` may not be a webhook endpoint, as the end of a sentence starting "url ...", or null
 * when it may (docs/webhooks.md, "Which URLs"): https only, no credentials, at most 2048
 * characters, and a host that is not, and does not now resolve to, a loopback, private,
 * link-local or metadata address. A name that does not resolve is accepted: the delivery engine
 * checks every send again. WEBHOOKS_ALLOW_PRIVATE lifts the scheme and address rules.
 * @example await checkWebhookTarget("http://example.com/", { allowPrivate: false, lookup }) // "must use https ..."
 */
export async function checkWebhookTarget(url: string, policy: TargetPolicy): Promise<string | null> {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined) return "must be an absolute URL";
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must use https";
  if (parsed.username !== "" || parsed.password !== "") return "must not contain a user name or password";
  if (policy.allowPrivate) return null;
  if (parsed.protocol !== "https:") {
    return "must use https (plain http is allowed only when the server sets WEBHOOKS_ALLOW_PRIVATE=true)";
  }
  const resolved = await resolvePublicAddresses(parsed.hostname, policy.lookup, policy.timeoutMs);
  if (resolved.kind !== "refused") return null;
  // The address a name resolved to is not repeated: the answer would map the server's network.
  return resolved.literal
    ? `must not point at a loopback, private, link-local or metadata address (${parsed.hostname}) unless the server sets WEBHOOKS_ALLOW_PRIVATE=true`
    : `has a host (${parsed.hostname}) that resolves to a loopback, private, link-local or metadata address, which is refused unless the server sets WEBHOOKS_ALLOW_PRIVATE=true`;
}
