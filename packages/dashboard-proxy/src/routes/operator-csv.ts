import { REQUEST_ID_HEADER } from "@keyport/errors";
import type { H3 } from "h3";
import type { Logger } from "pino";
import { errorResponse } from "../http/errors.js";
import type { ClientIpReader } from "../http/request-ip.js";
import { readSessionToken, type SessionCookies } from "../session/cookies.js";
import { checkSessionProvenance } from "../session/provenance.js";
import { failureToApiError } from "../upstream/failure.js";
import type { KeyportClient } from "../upstream/keyport.js";

/** What the export route needs. */
export interface OperatorCsvOptions {
  keyport: KeyportClient;
  cookies: SessionCookies;
  clientIp: ClientIpReader;
  publicOrigin: string;
  logger: Logger;
}

/** The console's "Export CSV" link: the server's `GET /operator/payments.csv` with the cookie's bearer. */
export const PAYMENTS_CSV_PATH = "/api/operator/payments.csv";

/**
 * How long the export may take, answer and body: the forward's timer bounds the streaming too, and a
 * year of payments is some 100,000 rows, written in seconds. KEYPORT_TIMEOUT_MS (a JSON call's wait)
 * would cut a large file.
 */
export const CSV_TIMEOUT_MS = 10 * 60_000;

// The range is all the server reads; nothing else of the browser's query goes on.
const RANGE_PARAMS = ["from", "to"];
const RESPONSE_HEADERS = ["content-type", "content-disposition", "cache-control"];

/**
 * Registers `GET /api/operator/payments.csv` (docs/operator.md#console): the dashboard's own page only,
 * the session cookie turned into `Authorization: Bearer`, the server's file streamed back as it comes
 * (an operator's session, else the server's 401/403 envelope). A 401 clears the cookies.
 */
export function registerOperatorCsvRoute(app: H3, options: OperatorCsvOptions): void {
  const { keyport, cookies, clientIp, publicOrigin, logger } = options;

  app.get(PAYMENTS_CSV_PATH, async (event) => {
    const refused = checkSessionProvenance(event, publicOrigin);
    if (refused !== undefined) return errorResponse(refused);
    const token = readSessionToken(event, cookies.name);
    if (token === undefined) return errorResponse({ code: "UNAUTHORIZED", message: "Not signed in" });

    const query = new URLSearchParams();
    for (const name of RANGE_PARAMS) {
      const value = event.url.searchParams.get(name);
      if (value !== null) query.set(name, value);
    }
    const headers = new Headers({ authorization: `Bearer ${token}`, accept: "text/csv" });
    const ip = clientIp(event);
    if (ip !== undefined) headers.set("x-forwarded-for", ip);
    const requestId = event.context.requestId;
    if (requestId !== undefined) headers.set(REQUEST_ID_HEADER, requestId);

    const search = query.size > 0 ? `?${query}` : "";
    const result = await keyport.forward({
      method: "GET",
      pathAndQuery: `/operator/payments.csv${search}`,
      headers,
      body: null,
      signal: event.req.signal,
      timeoutMs: CSV_TIMEOUT_MS,
    });
    if (!result.ok) {
      if (result.failure.kind !== "client_closed") {
        logger.warn({ upstream: "keyport", failure: result.failure, reqId: requestId }, "upstream failed");
      }
      return errorResponse(failureToApiError(result.failure, "Keyport server"), requestId);
    }
    const upstream = result.value;
    if (upstream.status >= 300 && upstream.status < 400) {
      await upstream.body?.cancel();
      return errorResponse(
        { code: "BAD_GATEWAY", message: "The Keyport server failed to answer" },
        requestId,
      );
    }
    const answer = new Headers();
    for (const name of RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) answer.set(name, value);
    }
    if (upstream.status === 401) {
      for (const cookie of cookies.clear()) answer.append("set-cookie", cookie);
    }
    return new Response(upstream.body, { status: upstream.status, headers: answer });
  });
}
