import { CHAT_EVENTS, type ChatRequest, chatDeltaSchema } from "@keyport/dashboard-proxy/schemas";
import { KeyportError, networkError, readEnvelope, statusOf } from "@keyport/errors";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { errorFromResponse, type FetchFunction, send } from "./proxy-response.js";

/**
 * Posts a chat and yields the answer's text deltas as they arrive, read from the proxy's event
 * stream (`data: {"delta":"..."}` events, then `done`). An `error` event (the agent failed
 * mid-answer) throws its KeyportError; a stream cut before `done` throws too, so a partial answer
 * never looks complete. Aborting `signal` cancels the request and ends the iteration quietly;
 * leaving a `for await` early cancels it too. Errors are KeyportErrors.
 */
export async function* streamChat(
  fetchFn: FetchFunction,
  url: string,
  body: ChatRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<string, void, undefined> {
  if (signal?.aborted) return;
  // Our own controller, so that an early `break` (no caller abort) still tears the connection down.
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await send(fetchFn, url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) throw await errorFromResponse(response);
    const type = response.headers.get("content-type") ?? "";
    if (response.body === null || !/^text\/event-stream\s*(;|$)/i.test(type)) {
      await response.body?.cancel().catch(() => {});
      throw badStream("The proxy did not answer the chat with an event stream");
    }
    yield* readDeltas(response.body);
  } catch (error) {
    // The caller asked for the stop: end the stream instead of failing it.
    if (signal?.aborted) return;
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    controller.abort();
  }
}

/** Yields the `delta` of each text event until `done`; throws for `error` or an early end. */
async function* readDeltas(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => void events.push(event) });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw networkError(error);
      }
      if (chunk.done) throw badStream("The chat stream ended before the answer was complete");
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      for (const event of events.splice(0)) {
        if (event.event === CHAT_EVENTS.done) return;
        if (event.event === CHAT_EVENTS.error) throw agentError(event.data);
        if (event.event !== undefined) continue; // an event type this client does not know yet
        const delta = chatDeltaSchema.safeParse(parseJson(event.data));
        if (!delta.success) throw badStream("The proxy sent a chat event of an unexpected shape");
        if (delta.data.delta !== "") yield delta.data.delta;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The KeyportError an `error` event carries (its envelope, validated), else a plain BAD_GATEWAY. */
function agentError(data: string): KeyportError {
  const envelope = readEnvelope(parseJson(data));
  if (envelope === undefined) return badStream("The chat agent failed while answering");
  return new KeyportError({ ...envelope, status: statusOf(envelope.code) });
}

function badStream(message: string): KeyportError {
  return new KeyportError({ code: "BAD_GATEWAY", status: 502, message });
}
