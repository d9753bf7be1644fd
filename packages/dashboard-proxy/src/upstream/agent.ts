import { openAiDeltas } from "../chat/openai-deltas.js";
import type { StreamBounds } from "../chat/stream-bounds.js";
import { textDeltas } from "../chat/text-deltas.js";
import type { ChatRequest } from "../schemas/chat.js";
import type { UpstreamResult } from "./failure.js";
import { fetchErrorDetail } from "./fetch-error.js";

// The only module that knows the agent's URL and key. The key goes in the Authorization header.

/** How the agent speaks: OpenAI-style streaming chat completions, or a plain streamed text body. */
export type AgentProtocol = "openai" | "text";

/** Where and how to reach the chat agent. */
export interface AgentOptions {
  /** The full chat-completions URL, e.g. `https://api.openai.com/v1/chat/completions`. */
  url: string;
  apiKey: string | undefined;
  /** How long the agent may take to send its response headers. */
  headerTimeoutMs: number;
  /** What the streamed body may hold and how long it may be silent (AGENT_STREAM_BOUNDS). */
  bounds: StreamBounds;
  protocol: AgentProtocol;
  /** Sent as `model` (OpenAI protocol only); omitted when unset. */
  model?: string | undefined;
  /** Sent first, as a `system` message, in either protocol. */
  systemPrompt?: string | undefined;
}

/**
 * Forwards a validated chat; resolves once the agent's headers arrive with its answer as text
 * deltas. The deltas throw if the agent fails mid-answer or its stream passes the bounds.
 */
export interface AgentClient {
  send(body: ChatRequest, clientSignal: AbortSignal): Promise<UpstreamResult<AsyncIterable<string>>>;
}

/**
 * Creates the agent client. Aborting `clientSignal` (the browser went away or pressed Stop) cancels
 * the upstream request at any point, headers or body.
 * @example createAgentClient({ url: "http://agent:8080/v1/chat/completions", apiKey, headerTimeoutMs: 30_000, bounds: AGENT_STREAM_BOUNDS, protocol: "openai" })
 */
export function createAgentClient(options: AgentOptions): AgentClient {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept:
      options.protocol === "openai"
        ? "text/event-stream"
        : "text/event-stream, application/x-ndjson, text/plain;q=0.9, application/json;q=0.8",
  };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  const { bounds } = options;
  const readDeltas = (body: ReadableStream<Uint8Array>) =>
    options.protocol === "openai" ? openAiDeltas(body, bounds) : textDeltas(body, { bounds });

  return {
    async send(body, clientSignal) {
      const controller = new AbortController();
      const onClientAbort = () => controller.abort(clientSignal.reason);
      if (clientSignal.aborted) onClientAbort();
      else clientSignal.addEventListener("abort", onClientAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException("agent header timeout", "TimeoutError"));
      }, options.headerTimeoutMs);
      try {
        const response = await fetch(options.url, {
          method: "POST",
          headers,
          body: JSON.stringify(upstreamBody(body, options)),
          signal: controller.signal,
          redirect: "error",
        });
        if (!response.ok || response.body === null) {
          await response.body?.cancel();
          return { ok: false, failure: { kind: "bad_gateway", detail: `HTTP ${response.status}` } };
        }
        return { ok: true, value: readDeltas(response.body) };
      } catch (error) {
        if (timedOut) return { ok: false, failure: { kind: "timeout", detail: "header timeout" } };
        if (clientSignal.aborted)
          return { ok: false, failure: { kind: "client_closed", detail: "client aborted" } };
        return { ok: false, failure: { kind: "bad_gateway", detail: fetchErrorDetail(error) } };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * What the agent receives. OpenAI: `{ model?, stream: true, messages }` and nothing else (the
 * browser's `sessionId` means nothing to such an agent). Text: v0.1's `{ messages, sessionId? }`.
 */
function upstreamBody(body: ChatRequest, options: AgentOptions): Record<string, unknown> {
  const system =
    options.systemPrompt === undefined ? [] : [{ role: "system", content: options.systemPrompt }];
  const messages = [...system, ...body.messages];
  if (options.protocol === "text") {
    return body.sessionId === undefined ? { messages } : { messages, sessionId: body.sessionId };
  }
  return options.model === undefined
    ? { stream: true, messages }
    : { model: options.model, stream: true, messages };
}
