import type { H3 } from "h3";
import type { Logger } from "pino";
import { errorResponse, validationError } from "../http/errors.js";
import { chatRequestSchema } from "../schemas/chat.js";
import type { AgentClient } from "../upstream/agent.js";
import { failureToApiError } from "../upstream/failure.js";
import { DASHBOARD_ROUTES } from "./table.js";

/** What the chat route needs; `agent` is undefined when `AGENT_URL` is unset. */
export interface ChatRouteOptions {
  agent: AgentClient | undefined;
  logger: Logger;
}

// Content types a chat stream may carry back; anything else is relabelled as plain text so the
// agent cannot make the browser sniff or render something else.
const STREAM_TYPES = /^(text\/event-stream|text\/plain|application\/x-ndjson|application\/json)\s*(;|$)/i;

/**
 * Registers `POST /api/chat`: validates the body (64 KiB at most, enforced by the app's body
 * limit), forwards it to the agent and streams the agent's answer back as it arrives.
 */
export function registerChatRoute(app: H3, options: ChatRouteOptions): void {
  const { agent, logger } = options;

  app.post(DASHBOARD_ROUTES.chat.path, async (event) => {
    if (agent === undefined) {
      return errorResponse({
        code: "SERVICE_UNAVAILABLE",
        message: "Chat is not configured: the dashboard proxy has no AGENT_URL",
      });
    }
    const mediaType = (event.req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "application/json") {
      return errorResponse({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: "Send the chat body as application/json",
      });
    }
    // Over 64 KiB this throws a 413, mapped to the envelope by the app's error hook.
    const text = await event.req.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return errorResponse({ code: "BAD_REQUEST", message: "The body is not valid JSON" });
    }
    const body = chatRequestSchema.safeParse(json);
    if (!body.success) return errorResponse(validationError(body.error, "Invalid chat request"));

    const result = await agent.send(body.data, event.req.signal);
    if (!result.ok) {
      logger.warn({ upstream: "agent", failure: result.failure }, "upstream failed");
      return errorResponse(failureToApiError(result.failure, "chat agent"));
    }
    const upstreamType = result.value.headers.get("content-type") ?? "";
    return new Response(result.value.body, {
      status: 200,
      headers: {
        "content-type": STREAM_TYPES.test(upstreamType) ? upstreamType : "text/plain; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        "x-content-type-options": "nosniff",
      },
    });
  });
}
