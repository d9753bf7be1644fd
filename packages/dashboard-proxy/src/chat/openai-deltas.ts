import { createParser, type EventSourceMessage } from "eventsource-parser";
import { z } from "zod";
import { textDeltas } from "./text-deltas.js";

/** The agent broke the OpenAI streaming protocol mid-answer; `reason` is for logs (never agent text). */
export class AgentStreamError extends Error {
  override name = "AgentStreamError";
  constructor(readonly reason: "error event" | "unreadable event") {
    super(`agent stream: ${reason}`);
  }
}

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
 * error event or data that is not a chunk, and the body's own error when the connection breaks.
 * @example for await (const text of openAiDeltas(response.body)) send(text)
 */
export async function* openAiDeltas(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<string, void, undefined> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => void events.push(event) });
  for await (const text of textDeltas(body)) {
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
