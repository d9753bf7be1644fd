import { describe, expect, it } from "vitest";
import { openAiDeltas } from "./openai-deltas.js";
import { AGENT_STREAM_BOUNDS, AgentStreamError } from "./stream-bounds.js";

const chunk = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

/** A body made of exactly these byte chunks; records whether it was cancelled. */
function body(bytes: Uint8Array[]) {
  const seen = { cancelled: false };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = bytes[index++];
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

async function collect(deltas: AsyncIterable<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const delta of deltas) seen.push(delta);
  return seen;
}

describe("openAiDeltas", () => {
  it("yields content deltas whatever byte boundaries split the events and characters", async () => {
    const text = `: keep-alive\r\n\r\n${chunk("ca")}${chunk("fé ☕")}data: {"choices":[{"delta":{"role":"assistant"}}]}\n\ndata: [DONE]\n\n`;
    const bytes = new TextEncoder().encode(text);
    // One byte at a time: every event, line and multi-byte character is split somewhere.
    const { stream } = body(Array.from(bytes, (byte) => Uint8Array.of(byte)));
    expect((await collect(openAiDeltas(stream, AGENT_STREAM_BOUNDS))).join("")).toBe("café ☕");
  });

  it("stops at [DONE] and cancels the rest of the body", async () => {
    const encoder = new TextEncoder();
    const { stream, seen } = body([
      encoder.encode(`${chunk("a")}data: [DONE]\n\n`),
      encoder.encode(chunk("b")),
    ]);
    expect(await collect(openAiDeltas(stream, AGENT_STREAM_BOUNDS))).toEqual(["a"]);
    expect(seen.cancelled).toBe(true);
  });

  it.each([
    ["an error object", 'data: {"error":{"message":"overloaded"}}\n\n', "error event"],
    ["a named error event", "event: error\ndata: {}\n\n", "error event"],
    ["data that is not JSON", "data: <html>\n\n", "unreadable event"],
    ["JSON of another shape", 'data: {"choices":"none"}\n\n', "unreadable event"],
  ])("throws AgentStreamError on %s", async (_name, event, reason) => {
    const { stream } = body([new TextEncoder().encode(chunk("a") + event)]);
    const error = await collect(openAiDeltas(stream, AGENT_STREAM_BOUNDS)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentStreamError);
    expect(error).toMatchObject({ reason });
  });
});
