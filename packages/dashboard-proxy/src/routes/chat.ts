import type { H3 } from "h3";
import type { Logger } from "pino";
import { type ChatAccess, createChatAccessCheck } from "../chat/access.js";
import { relayEvents } from "../chat/event-stream.js";
import { AgentStreamError } from "../chat/stream-bounds.js";
import { errorResponse, validationError } from "../http/errors.js";
import { parseJsonBody } from "../http/json-body.js";
import { chatRequestSchema } from "../schemas/chat.js";
import type { ResolveSession } from "../session/resolver.js";
import type { AgentClient } from "../upstream/agent.js";
import { failureToApiError } from "../upstream/failure.js";
import { fetchErrorDetail } from "../upstream/fetch-error.js";
import { DASHBOARD_ROUTES } from "./table.js";

/** What the chat route needs; `agent` is undefined when `AGENT_URL` is unset. */
export interface ChatRouteOptions {
  agent: AgentClient | undefined;
  logger: Logger;
  /** `CHAT_ACCESS`; default `session`. */
  access?: ChatAccess;
  /** The signed-in wallet behind the request's cookie; without it, session access answers 401. */
  resolveSession?: ResolveSession;
  /** `CHAT_RATE_LIMIT_PER_MINUTE`: chats per wallet per window under session access; default 20. */
  perWalletLimit?: number;
  /** The per-wallet window; default one minute. */
  rateLimitWindowMs?: number;
}

/**
 * Registers `POST /api/chat`: checks access (session and per-wallet limit, or public), validates
 * the body (64 KiB at most, enforced by the app's body limit), sends it to the agent and relays
 * the answer as the event stream schemas/chat.ts describes. Failures before the stream starts are
 * JSON error envelopes; after, one `error` event.
 */
export function registerChatRoute(app: H3, options: ChatRouteOptions): void {
  const { agent, logger } = options;
  const checkAccess = createChatAccessCheck({
    access: options.access ?? "session",
    resolveSession: options.resolveSession,
    perWalletLimit: options.perWalletLimit ?? 20,
    windowMs: options.rateLimitWindowMs ?? 60_000,
    logger,
  });

  app.post(DASHBOARD_ROUTES.chat.path, async (event) => {
    if (agent === undefined) {
      return errorResponse(
        {
          code: "SERVICE_UNAVAILABLE",
          message: "Chat is not configured: the dashboard proxy has no AGENT_URL",
        },
        event.context.requestId,
      );
    }
    const refused = await checkAccess(event);
    if (refused !== undefined) return errorResponse(refused, event.context.requestId);
    const mediaType = (event.req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "application/json") {
      return errorResponse({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: "Send the chat body as application/json",
      });
    }
    // Over 64 KiB this throws a 413, mapped to the envelope by the app's error hook.
    const text = await event.req.text();
    const json = parseJsonBody(text);
    if (!json.ok) return errorResponse(json.error);
    const body = chatRequestSchema.safeParse(json.value);
    if (!body.success) return errorResponse(validationError(body.error, "Invalid chat request"));

    // Aborted when the browser goes away or cancels the body (Stop): the agent's request ends too.
    const stop = new AbortController();
    const result = await agent.send(body.data, AbortSignal.any([event.req.signal, stop.signal]));
    if (!result.ok) {
      // A client that left is not an upstream failure: the access line records the abort (499).
      if (result.failure.kind !== "client_closed") {
        logger.warn(
          { upstream: "agent", failure: result.failure, reqId: event.context.requestId },
          "upstream failed",
        );
      }
      return errorResponse(failureToApiError(result.failure, "chat agent"), event.context.requestId);
    }
    const stream = relayEvents(
      result.value,
      () => stop.abort(),
      (error) => {
        if (stop.signal.aborted || event.req.signal.aborted) return;
        const detail = error instanceof AgentStreamError ? error.reason : fetchErrorDetail(error);
        logger.warn(
          { upstream: "agent", failure: { kind: "bad_gateway", detail }, reqId: event.context.requestId },
          "agent stream failed",
        );
      },
    );
    return new Response(stream, {
      status: 200,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        "x-content-type-options": "nosniff",
      },
    });
  });
}
