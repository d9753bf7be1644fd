import type { ChatRequest } from "@keyport/dashboard-proxy/schemas";
import { errorFromResponse, type FetchFunction, send } from "./proxy-response.js";

/**
 * Posts a chat and yields the response body as text, chunk by chunk, as it arrives: the agent's bytes
 * decoded as UTF-8 and nothing else (an SSE agent's `data:` framing included; chunk boundaries follow the
 * network, so concatenating every chunk gives the whole body). Aborting `signal` cancels the request and
 * ends the iteration quietly; leaving a `for await` early cancels it too. Errors are KeyportErrors.
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
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream, application/x-ndjson, text/plain;q=0.9, application/json;q=0.8",
      },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) throw await errorFromResponse(response);
    if (response.body === null) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        const text = decoder.decode(chunk.value, { stream: true });
        if (text !== "") yield text;
      }
      const rest = decoder.decode();
      if (rest !== "") yield rest;
    } finally {
      reader.cancel().catch(() => {});
    }
  } catch (error) {
    // The caller asked for the stop: end the stream instead of failing it.
    if (signal?.aborted) return;
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    controller.abort();
  }
}
