import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { resolvePublicAddresses } from "./target.js";

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the default: the system resolver, as `dns.lookup` with `all`). */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Where a send may connect, or why it may not. */
export type SendTarget = { ok: true; addresses: ResolvedAddress[] } | { ok: false; reason: string };

/**
 * The send-time check (docs/webhooks.md, "Which URLs"): the URL's host resolved once, here, and
 * refused when ANY address is not public (unless `allowPrivate`), by the same judge create and PATCH
 * use (target.ts). The send then connects only to these checked addresses, so a second DNS answer
 * (rebinding) never reaches loopback or metadata.
 */
export async function resolveSendTarget(
  url: URL,
  allowPrivate: boolean,
  resolve: ResolveHost,
): Promise<SendTarget> {
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    return { ok: false, reason: "https required" };
  }
  if (allowPrivate) {
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const family = isIP(host);
    if (family !== 0) return { ok: true, addresses: [{ address: host, family }] };
    const addresses = await resolve(host).catch(() => []);
    return addresses.length === 0 ? { ok: false, reason: "host not found" } : { ok: true, addresses };
  }
  const judged = await resolvePublicAddresses(url.hostname, resolve);
  if (judged.kind === "unresolved") return { ok: false, reason: "host not found" };
  if (judged.kind === "refused") return { ok: false, reason: "address not allowed" };
  return { ok: true, addresses: judged.addresses.map((address) => ({ address, family: isIP(address) })) };
}
