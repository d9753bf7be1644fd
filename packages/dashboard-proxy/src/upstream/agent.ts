import type { ChatRequest } from "../schemas/chat.js";
import type { UpstreamResult } from "./failure.js";
import { fetchErrorDetail } from "./fetch-error.js";

// The only module that knows the agent's URL and key. The key goes in the Authorization header.

/** Where and how to reach the chat agent. */
export interface AgentOptions {
  url: string;
  apiKey: string | undefined;
  /** How long the agent may take to send its response headers; the streamed body has no limit. */
  headerTimeoutMs: number;
}

/** Forwards a validated chat body; resolves with the agent's streaming response once headers arrive. */
export interface AgentClient {
  send(body: ChatRequest, clientSignal: AbortSignal): Promise<UpstreamResult<Response>>;
}

/**
 * Creates the agent client. Aborting `clientSignal` (the browser went away) cancels the upstream
 * request at any point, headers or body.
 * @example createAgentClient({ url: "http://agent:8080/chat", apiKey, headerTimeoutMs: 30_000 })
 */
export function createAgentClient(options: AgentOptions): AgentClient {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream, application/x-ndjson, text/plain;q=0.9, application/json;q=0.8",
  };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;

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
          body: JSON.stringify(body),
          signal: controller.signal,
          redirect: "error",
        });
        if (!response.ok || response.body === null) {
          await response.body?.cancel();
          return { ok: false, failure: { kind: "bad_gateway", detail: `HTTP ${response.status}` } };
        }
        return { ok: true, value: response };
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
