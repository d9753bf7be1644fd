import { clientAddress, type TrustedProxies } from "@keyport/node-edge";
import { getRequestIP, type H3Event } from "h3";
import "./request-context.js";

/** Reads a request's client address (see `clientAddress`); answers once per request. */
export type ClientIpReader = (event: H3Event) => string | undefined;

/**
 * Builds the reader the guards (per-IP limit) and the `/trpc` forward (`X-Forwarded-For`) share. The
 * peer is srvx's socket address (the server runs without srvx's own `trustProxy`, which would also
 * believe `X-Forwarded-Host`: `Host` is never trusted here).
 */
export function createClientIpReader(trusted: TrustedProxies): ClientIpReader {
  return (event) => {
    const seen = event.context.clientIp;
    if (seen !== undefined) return seen ?? undefined;
    const address = clientAddress(getRequestIP(event), event.req.headers.get("x-forwarded-for"), trusted);
    event.context.clientIp = address ?? null;
    return address;
  };
}
