import { createHash, timingSafeEqual } from "node:crypto";

/** Whether a request may read `/metrics`, and if not, why. */
export type MetricsAccess = "allowed" | "unauthorized" | "forbidden";

/** What the access rule reads of a request, whatever server received it. */
export interface MetricsRequest {
  /** The socket's peer address, never an address read from a header. */
  peer: string | undefined;
  /** A request header's value (names in lower case); null or undefined when absent. */
  header(name: "authorization" | "x-forwarded-for" | "forwarded"): string | null | undefined;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Decides who reads `/metrics`. With a token set: exactly `Authorization: Bearer <token>`,
 * compared in constant time (both sides hashed first, so even the length is not leaked), else
 * `unauthorized`. Without one: only a loopback socket peer with no `X-Forwarded-For` or
 * `Forwarded` header (a reverse proxy on the same host would otherwise relay the world), else
 * `forbidden`.
 * @example const check = createMetricsAccess(env.METRICS_TOKEN); check({ peer, header }) === "allowed"
 */
export function createMetricsAccess(token: string | undefined): (request: MetricsRequest) => MetricsAccess {
  if (token === undefined) {
    return (request) =>
      isLoopback(request.peer) &&
      !present(request.header("x-forwarded-for")) &&
      !present(request.header("forwarded"))
        ? "allowed"
        : "forbidden";
  }
  const expected = digest(token);
  return (request) => {
    const presented = BEARER.exec(request.header("authorization") ?? "")?.[1];
    if (presented === undefined) return "unauthorized";
    return timingSafeEqual(digest(presented), expected) ? "allowed" : "unauthorized";
  };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}

function present(value: string | null | undefined): boolean {
  return value !== null && value !== undefined;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
