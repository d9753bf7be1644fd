import { type ErrorEnvelope, errorBody, REQUEST_ID_HEADER, readEnvelope } from "@keyport/errors";
import { z } from "zod";
import type { UpstreamResult } from "./failure.js";
import { fetchErrorDetail } from "./fetch-error.js";

/** Where the Keyport server is and how long to wait for its answer headers. */
export interface KeyportClientOptions {
  /** `KEYPORT_URL`, without a trailing slash. */
  baseUrl: string;
  timeoutMs: number;
}

/** A live session as the server describes it (never the token). */
export interface SessionInfo {
  wallet: string;
  expiresAt: Date;
}

/** A live session as `GET /auth/session` describes it: also whether its wallet is an operator's. */
export interface LiveSession extends SessionInfo {
  /** `OPERATOR_WALLETS` holds the wallet, as of this request (docs/operator.md). */
  operator: boolean;
}

/** The browser a sign-in came from, as the proxy saw it (undefined: unknown or not sent). */
export interface BrowserOrigin {
  clientIp: string | undefined;
  userAgent: string | undefined;
}

/** The server's answer to a call: what it said (status and envelope) when it refused. */
export type KeyportAnswer<T> = { ok: true; value: T } | { ok: false; status: number; error: ErrorEnvelope };

/** One `/trpc` call to pass on: the method, path with query, headers and body as the proxy built them. */
export interface ForwardRequest {
  method: string;
  pathAndQuery: string;
  headers: Headers;
  /** Read whole first: at most 64 KiB (the app's body limit), so nothing is gained by streaming it. */
  body: ArrayBuffer | null;
  signal: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call (a top-up waits for its settlement). */
  timeoutMs?: number;
}

/**
 * The Keyport server's routes the proxy uses; the only module that knows `KEYPORT_URL`. Each call
 * sends the browser request's id as `X-Request-Id` (`requestId`; the forward's `headers` carry it),
 * so the server's log lines of the call carry the proxy's id.
 */
export interface KeyportClient {
  /**
   * `POST /auth/verify`: a signed EIP-4361 message for a session token. The browser's address goes
   * on as `X-Forwarded-For` (so the server counts refused sign-ins per browser, not per proxy) and its
   * `User-Agent` as `User-Agent`: the session the server lists is the browser's, not the proxy's.
   */
  verify(
    message: string,
    signature: string,
    requestId: string | undefined,
    browser: BrowserOrigin,
  ): Promise<KeyportAnswer<SessionInfo & { token: string }>>;
  /** `GET /auth/session`: who the token belongs to, until when, and whether it is an operator's. */
  session(token: string, requestId: string | undefined): Promise<KeyportAnswer<LiveSession>>;
  /** `POST /auth/logout`: ends the session on the server. */
  logout(token: string, requestId: string | undefined): Promise<KeyportAnswer<{ ok: true }>>;
  /** `GET /meta`: the server's public setup (whether payments are on, on which token). */
  meta(requestId: string | undefined): Promise<KeyportAnswer<ServerMeta>>;
  /** Sends a `/trpc` request on and returns the server's response unread (streamed back). */
  forward(request: ForwardRequest): Promise<UpstreamResult<Response>>;
}

const sessionSchema = z.object({ wallet: z.string(), expiresAt: z.coerce.date() });
const signedInSchema = sessionSchema.extend({ token: z.string() });
// A server from before the operator role answers without the field: no operator then.
const liveSessionSchema = sessionSchema.extend({ operator: z.boolean().default(false) });
const loggedOutSchema = z.object({ ok: z.literal(true) });
const serverMetaSchema = z.object({
  payments: z
    .object({
      network: z.string(),
      asset: z.string(),
      decimals: z.number().int(),
      creditsPerToken: z.number().int(),
      min: z.string(),
      max: z.string(),
    })
    .nullable(),
  chainIds: z.array(z.number().int().positive()),
});

/** The server's `GET /meta` answer, as far as the proxy reads it. */
export type ServerMeta = z.infer<typeof serverMetaSchema>;

const UNREACHABLE: ErrorEnvelope = errorBody("BAD_GATEWAY", "The Keyport server is unreachable");
const TOO_SLOW: ErrorEnvelope = errorBody("GATEWAY_TIMEOUT", "The Keyport server did not answer in time");
const GARBLED: ErrorEnvelope = errorBody("BAD_GATEWAY", "The Keyport server gave an unexpected answer");

/**
 * @example const keyport = createKeyportClient({ baseUrl: env.KEYPORT_URL, timeoutMs: env.KEYPORT_TIMEOUT_MS })
 */
export function createKeyportClient(options: KeyportClientOptions): KeyportClient {
  const call = async <T>(
    method: string,
    path: string,
    schema: z.ZodType<T>,
    requestId: string | undefined,
    token?: string,
    body?: unknown,
    browser?: BrowserOrigin,
  ): Promise<KeyportAnswer<T>> => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
    if (browser?.clientIp !== undefined) headers["x-forwarded-for"] = browser.clientIp;
    if (browser?.userAgent !== undefined) headers["user-agent"] = browser.userAgent;
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      return { ok: false, ...failed(error) };
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      return { ok: false, status: 502, error: GARBLED };
    }
    if (response.ok) {
      const parsed = schema.safeParse(json);
      return parsed.success ? { ok: true, value: parsed.data } : { ok: false, status: 502, error: GARBLED };
    }
    const envelope = readEnvelope(json);
    if (envelope === undefined || response.status >= 500) {
      // The server's own 5xx text is already generic; a dependency's failure (503) keeps its words.
      return {
        ok: false,
        status: response.status >= 500 ? response.status : 502,
        error: envelope ?? GARBLED,
      };
    }
    return { ok: false, status: response.status, error: envelope };
  };

  return {
    verify: (message, signature, requestId, browser) =>
      call("POST", "/auth/verify", signedInSchema, requestId, undefined, { message, signature }, browser),
    session: (token, requestId) => call("GET", "/auth/session", liveSessionSchema, requestId, token),
    logout: (token, requestId) => call("POST", "/auth/logout", loggedOutSchema, requestId, token, {}),
    meta: (requestId) => call("GET", "/meta", serverMetaSchema, requestId),
    async forward(request) {
      // A timer of our own, not AbortSignal.timeout(): AbortSignal.any() holds its sources weakly, so a
      // timeout signal nothing else holds can be collected before it fires, and the forward then waits for
      // ever (test/reliability/long-forward.test.ts). The timer holds its controller until it fires; it
      // still bounds the body's streaming, as before, and is unref'd so it never holds the process open.
      const timeout = new AbortController();
      setTimeout(
        () => timeout.abort(new DOMException("The forward timed out", "TimeoutError")),
        request.timeoutMs ?? options.timeoutMs,
      ).unref();
      try {
        const response = await fetch(`${options.baseUrl}${request.pathAndQuery}`, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          redirect: "manual",
          signal: AbortSignal.any([request.signal, timeout.signal]),
        });
        return { ok: true, value: response };
      } catch (error) {
        const detail = fetchErrorDetail(error);
        if (request.signal.aborted) return { ok: false, failure: { kind: "client_closed", detail } };
        if (detail === "TimeoutError") return { ok: false, failure: { kind: "timeout", detail } };
        return { ok: false, failure: { kind: "bad_gateway", detail } };
      }
    },
  };
}

function failed(error: unknown): { status: number; error: ErrorEnvelope } {
  return fetchErrorDetail(error) === "TimeoutError"
    ? { status: 504, error: TOO_SLOW }
    : { status: 502, error: UNREACHABLE };
}
