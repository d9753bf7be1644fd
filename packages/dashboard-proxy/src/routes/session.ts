import { type H3, HTTPError } from "h3";
import { z } from "zod";
import { type ApiError, errorResponse, validationError } from "../http/errors.js";
import { parseJsonBody } from "../http/json-body.js";
import type { ClientIpReader } from "../http/request-ip.js";
import type { SessionCookies } from "../session/cookies.js";
import { readSessionToken } from "../session/cookies.js";
import { checkSessionProvenance } from "../session/provenance.js";
import type { KeyportAnswer, KeyportClient, LiveSession } from "../upstream/keyport.js";

/** What the session routes need. */
export interface SessionRouteOptions {
  keyport: KeyportClient;
  cookies: SessionCookies;
  /**
   * The browser's address, sent on with a sign-in (with its User-Agent) so the server limits refusals
   * per browser and records the browser's session.
   */
  clientIp: ClientIpReader;
  publicOrigin: string;
}

/** The session routes' path: `POST` signs in, `GET` says who, `DELETE` signs out. */
export const SESSION_PATH = "/api/session";

// Bounds well above any real EIP-4361 message and signature (65 bytes, or an ERC-6492 wrapper).
const signInSchema = z.object({
  message: z.string().min(1).max(8_192),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, "must be a 0x-prefixed hex signature")
    .max(16_384),
});

const NOT_SIGNED_IN: ApiError = { code: "UNAUTHORIZED", message: "Not signed in" };

/**
 * Registers `/api/session`. The token the server hands out goes only into the httpOnly cookie; the
 * page sees `{ wallet, expiresAt, operator }`. Every method answers only the dashboard's own page
 * (`checkSessionProvenance`), so `POST` and `DELETE` need `Origin: PUBLIC_ORIGIN`.
 */
export function registerSessionRoutes(app: H3, options: SessionRouteOptions): void {
  const { keyport, cookies, clientIp, publicOrigin } = options;

  app.post(SESSION_PATH, async (event) => {
    const refused = checkSessionProvenance(event, publicOrigin);
    if (refused !== undefined) return errorResponse(refused);
    const mediaType = (event.req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "application/json") {
      return errorResponse({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: "Send the sign-in body as application/json",
      });
    }
    let text: string;
    try {
      text = await event.req.text();
    } catch (error) {
      // Past 64 KiB the read throws the body limit's 413 (a streamed body too): not a JSON problem.
      if (HTTPError.isError(error) && error.status === 413) throw error;
      return errorResponse({ code: "BAD_REQUEST", message: "The body could not be read" });
    }
    const json = parseJsonBody(text);
    if (!json.ok) return errorResponse(json.error);
    const body = signInSchema.safeParse(json.value);
    if (!body.success) return errorResponse(validationError(body.error, "Invalid sign-in request"));

    const requestId = event.context.requestId;
    const answer = await keyport.verify(body.data.message, body.data.signature, requestId, {
      clientIp: clientIp(event),
      userAgent: event.req.headers.get("user-agent") ?? undefined,
    });
    if (!answer.ok) return refusal(answer, requestId);
    const { token, ...session } = answer.value;
    // Signing in again (another account, or after an account change) ends the session it replaces.
    const previous = readSessionToken(event, cookies.name);
    if (previous !== undefined && previous !== token) {
      await keyport.logout(previous, requestId);
    }
    // The sign-in's answer does not say whether the wallet is an operator's; the session read does.
    const who = await keyport.session(token, requestId);
    const operator = who.ok && who.value.operator;
    return sessionResponse({ ...session, operator }, cookies.set(token, session.expiresAt));
  });

  app.get(SESSION_PATH, async (event) => {
    const refused = checkSessionProvenance(event, publicOrigin);
    if (refused !== undefined) return errorResponse(refused);
    const token = readSessionToken(event, cookies.name);
    if (token === undefined) return withCookies(errorResponse(NOT_SIGNED_IN), cookies.clear());
    const answer = await keyport.session(token, event.context.requestId);
    if (!answer.ok) {
      if (answer.status !== 401) return refusal(answer, event.context.requestId);
      return withCookies(errorResponse(NOT_SIGNED_IN), cookies.clear());
    }
    return sessionResponse(answer.value, []);
  });

  app.delete(SESSION_PATH, async (event) => {
    const refused = checkSessionProvenance(event, publicOrigin);
    if (refused !== undefined) return errorResponse(refused);
    const token = readSessionToken(event, cookies.name);
    if (token !== undefined) {
      const answer = await keyport.logout(token, event.context.requestId);
      // Unreachable or slow: keep the cookie so a retry can still end the session on the server.
      if (!answer.ok && answer.status !== 401) return refusal(answer, event.context.requestId);
    }
    return withCookies(
      Response.json({ ok: true }, { headers: { "cache-control": "no-store" } }),
      cookies.clear(),
    );
  });
}

function sessionResponse(session: LiveSession, setCookies: string[]): Response {
  const body = {
    wallet: session.wallet,
    expiresAt: session.expiresAt.toISOString(),
    operator: session.operator,
  };
  return withCookies(Response.json(body, { headers: { "cache-control": "no-store" } }), setCookies);
}

function refusal(
  answer: Extract<KeyportAnswer<unknown>, { ok: false }>,
  requestId: string | undefined,
): Response {
  // A 5xx names the request whatever the server's envelope said (the server had the same id).
  const response = errorResponse(answer.error, answer.status >= 500 ? requestId : undefined);
  // The envelope's code fixes errorResponse's status; keep the server's when it differs (e.g. 503).
  return new Response(response.body, { status: answer.status, headers: response.headers });
}

function withCookies(response: Response, setCookies: string[]): Response {
  for (const cookie of setCookies) response.headers.append("set-cookie", cookie);
  return response;
}
