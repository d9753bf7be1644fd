import { createParser, type EventSourceMessage } from "eventsource-parser";
import { z } from "zod";
import { AgentStreamError, IdleWatch, type StreamBounds } from "./stream-bounds.js";
import { textDeltas } from "./text-deltas.js";

// One streamed chat-completion chunk, as loosely as OpenAI-compatible servers send it: only the
// first choice's `delta.content` matters (a role-only or finish chunk has none), and an `error`
// object in place of choices is how several servers report a failure mid-stream.
const chunkSchema = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).nullish() })).nullish(),
  error: z.unknown().optional(),
});

/**
 * Reads an OpenAI-style streaming chat completion (`data: {"choices":[{"delta":{"content":"..."}}]}`
 * events, then `data: [DONE]`) and yields each content delta in order. Ends at `[DONE]`, or when the
 * body ends cleanly without it (some compatible servers omit it). Throws AgentStreamError for an
 * error event, data that is not a chunk or a stream past `bounds` (a keep-alive comment counts as
 * an event for the idle time), and the body's own error when the connection breaks.
 * @example for await (const text of openAiDeltas(response.body, AGENT_STREAM_BOUNDS)) send(text)
 */
export async function* openAiDeltas(
  body: ReadableStream<Uint8Array>,
  bounds: StreamBounds,
): AsyncGenerator<string, void, undefined> {
  const events: EventSourceMessage[] = [];
  const watch = new IdleWatch(bounds.idleMs);
  const parser = createParser({
    onEvent: (event) => {
      watch.event();
      events.push(event);
    },
    onComment: () => watch.event(),
  });
  for await (const text of textDeltas(body, { bounds, events: watch })) {
    parser.feed(text);
    for (const event of events.splice(0)) {
      if (event.data === "[DONE]") return;
      const delta = readDelta(event);
      if (delta !== "") yield delta;
    }
  }
}

function readDelta(event: EventSourceMessage): string {
  if (event.event === "error") throw new AgentStreamError("error event");
  let json: unknown;
  try {
    json = JSON.parse(event.data);
  } catch {
    throw new AgentStreamError("unreadable event");
  }
  const chunk = chunkSchema.safeParse(json);
  if (!chunk.success) throw new AgentStreamError("unreadable event");
  if (chunk.data.error !== undefined && chunk.data.error !== null) throw new AgentStreamError("error event");
  return chunk.data.choices?.[0]?.delta?.content ?? "";
}
