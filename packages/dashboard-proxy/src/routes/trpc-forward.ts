import { REQUEST_ID_HEADER } from "@keyport/errors";
import { TOP_UP_TIMEOUT_MESSAGE } from "@keyport/node-edge";
import type { H3 } from "h3";
import type { Logger } from "pino";
import { errorResponse } from "../http/errors.js";
import { rawPathname } from "../http/raw-path.js";
import type { ClientIpReader } from "../http/request-ip.js";
import { readSessionToken, type SessionCookies } from "../session/cookies.js";
import { checkSessionProvenance } from "../session/provenance.js";
import { FORWARD_TIMEOUT_MS, readProcedurePath } from "../trpc/allow-list.js";
import { failureToApiError } from "../upstream/failure.js";
import type { KeyportClient } from "../upstream/keyport.js";

/** What the forward needs. */
export interface TrpcForwardOptions {
  keyport: KeyportClient;
  cookies: SessionCookies;
  clientIp: ClientIpReader;
  publicOrigin: string;
  logger: Logger;
}

/** The forward's route; the server's tRPC endpoint has the same prefix. */
export const TRPC_PREFIX = "/trpc/";

// What tRPC's links send and read; nothing else crosses (no cookie, no Authorization from the page).
const REQUEST_HEADERS = ["content-type", "accept", "trpc-accept"];
const RESPONSE_HEADERS = ["content-type", "cache-control", "vary", "payment-required", "payment-response"];

/**
 * Registers `/trpc/**`: forwards GET (queries) and POST (mutations) of allowed procedures to the
 * server with `Authorization: Bearer <cookie token>`, and streams the server's answer back with its
 * status and body untouched (tRPC's own JSON). A 401 for a cookie request also clears the cookies.
 */
export function registerTrpcForward(app: H3, options: TrpcForwardOptions): void {
  const { keyport, cookies, clientIp, publicOrigin, logger } = options;

  app.all(`${TRPC_PREFIX}**`, async (event) => {
    const method = event.req.method;
    if (method !== "GET" && method !== "POST") {
      return errorResponse({
        code: "METHOD_NOT_SUPPORTED",
        message: "tRPC takes GET for queries and POST for mutations",
        headers: { allow: "GET, POST" },
      });
    }
    const path = readProcedurePath(rawPathname(event).slice(TRPC_PREFIX.length));
    if (!path.ok) {
      return path.reason === "encoded"
        ? errorResponse({ code: "BAD_REQUEST", message: "Procedure paths may not be percent-encoded" })
        : errorResponse({ code: "NOT_FOUND", message: "No such procedure on the dashboard's API" });
    }
    const refused = checkSessionProvenance(event, publicOrigin);
    if (refused !== undefined) return errorResponse(refused);

    const headers = new Headers();
    for (const name of REQUEST_HEADERS) {
      const value = event.req.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    const token = readSessionToken(event, cookies.name);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    const ip = clientIp(event);
    if (ip !== undefined) headers.set("x-forwarded-for", ip);
    // The server logs the call under the browser request's id (and answers it back).
    const requestId = event.context.requestId;
    if (requestId !== undefined) headers.set(REQUEST_ID_HEADER, requestId);
    // Over 64 KiB this throws a 413, mapped to the envelope by the app's error hook.
    const body = method === "POST" ? await event.req.arrayBuffer() : null;

    const result = await keyport.forward({
      method,
      pathAndQuery: `${TRPC_PREFIX}${path.procedures.join(",")}${event.url.search}`,
      headers,
      body,
      signal: event.req.signal,
      timeoutMs: forwardTimeoutMs(path.procedures),
    });
    if (!result.ok) {
      // A client that left is not an upstream failure: the access line records the abort (499).
      if (result.failure.kind !== "client_closed") {
        logger.warn({ upstream: "keyport", failure: result.failure, reqId: requestId }, "upstream failed");
      }
      // A top-up that ran out of time may still be credited: say so, and where to look.
      const error =
        result.failure.kind === "timeout" && path.procedures.includes("keys.topUp")
          ? { code: "GATEWAY_TIMEOUT" as const, message: TOP_UP_TIMEOUT_MESSAGE }
          : failureToApiError(result.failure, "Keyport server");
      return errorResponse(error, requestId);
    }
    const upstream = result.value;
    const answer = new Headers();
    for (const name of RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) answer.set(name, value);
    }
    if (upstream.status === 401 && token !== undefined) {
      for (const cookie of cookies.clear()) answer.append("set-cookie", cookie);
    }
    // A redirect (never expected from tRPC) is not followed and not passed on.
    if (upstream.status >= 300 && upstream.status < 400) {
      await upstream.body?.cancel();
      return errorResponse(
        { code: "BAD_GATEWAY", message: "The Keyport server failed to answer" },
        requestId,
      );
    }
    return new Response(upstream.body, { status: upstream.status, headers: answer });
  });
}

/** The longest `FORWARD_TIMEOUT_MS` among a batch's procedures; undefined keeps KEYPORT_TIMEOUT_MS. */
function forwardTimeoutMs(procedures: readonly string[]): number | undefined {
  let longest: number | undefined;
  for (const [path, ms] of Object.entries(FORWARD_TIMEOUT_MS)) {
    if (procedures.includes(path) && ms !== undefined && (longest === undefined || ms > longest))
      longest = ms;
  }
  return longest;
}
