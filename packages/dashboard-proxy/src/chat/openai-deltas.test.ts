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

  describe("the idle bound counts time between events, not between bytes", () => {
    const bounds = { ...AGENT_STREAM_BOUNDS, idleMs: 250 };
    /** A body that sends `pieces` one every 100 ms. */
    const paced = (pieces: string[]) => {
      const encoder = new TextEncoder();
      let index = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const next = pieces[index++];
          if (next === undefined) controller.close();
          else controller.enqueue(encoder.encode(next));
        },
      });
    };

    it("keeps an answer alive through keep-alive comments past the idle time", async () => {
      const body = paced([
        chunk("a"),
        ": keep-alive\n\n",
        ": keep-alive\n\n",
        ": keep-alive\n\n",
        chunk("b"),
      ]);
      // 400 ms of idle bound against 100 ms gaps: room for a loaded machine's late timers, and still
      // less than the 500 ms the whole answer takes, so only the comments keep it alive.
      expect(await collect(openAiDeltas(body, { ...bounds, idleMs: 400 }))).toEqual(["a", "b"]);
    });

    it("ends an event trickled a few bytes at a time once no event completed within the idle time", async () => {
      const body = paced(['data: {"choices":', '[{"delta":', '{"content":', '"slow"}}]}', "\n\n"]);
      const error = await collect(openAiDeltas(body, bounds)).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ reason: "idle" });
    });
  });
});
