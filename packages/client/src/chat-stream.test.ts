import { KeyportError } from "@keyport/errors";
import { describe, expect, it } from "vitest";
import { createDashboardClient } from "./dashboard-client.js";

const encoder = new TextEncoder();
const delta = (text: string) => `data: ${JSON.stringify({ delta: text })}\n\n`;
const DONE = "event: done\ndata: {}\n\n";
const hi = [{ role: "user" as const, content: "hi" }];

/** A fetch answering with a body made of exactly these byte chunks; records whether the body was cancelled. */
function streamingFetch(chunks: Uint8Array[], contentType = "text/event-stream; charset=utf-8") {
  const seen: { cancelled: boolean; bodies: string[] } = { cancelled: false, bodies: [] };
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    seen.bodies.push(typeof init?.body === "string" ? init.body : "");
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": contentType } });
  };
  return { fetch, seen };
}

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const chunk of chunks) seen.push(chunk);
  return seen;
}

const dashboardWith = (fetch: typeof globalThis.fetch) =>
  createDashboardClient({ baseUrl: "http://proxy.test", fetch });

describe("chat.stream", () => {
  it("yields the text deltas in order, not the event framing, and ends at done", async () => {
    const { fetch } = streamingFetch([encoder.encode(delta("Hello, ") + delta("world") + DONE)]);
    expect(await collect(dashboardWith(fetch).chat.stream(hi))).toEqual(["Hello, ", "world"]);
  });

  it("decodes events and UTF-8 split anywhere between network chunks", async () => {
    const bytes = encoder.encode(delta("café ☕") + delta("🚀") + DONE);
    // One byte at a time: every event, line and multi-byte character is split somewhere.
    const { fetch } = streamingFetch(Array.from(bytes, (byte) => Uint8Array.of(byte)));
    expect((await collect(dashboardWith(fetch).chat.stream(hi))).join("")).toBe("café ☕🚀");
  });

  it("throws the error event's KeyportError after the deltas that came before it", async () => {
    const failure =
      'event: error\ndata: {"code":"BAD_GATEWAY","message":"The chat agent failed while answering"}\n\n';
    const { fetch } = streamingFetch([encoder.encode(delta("partial") + failure)]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of dashboardWith(fetch).chat.stream(hi)) seen.push(chunk);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(["partial"]);
    expect(error).toBeInstanceOf(KeyportError);
    expect(error).toMatchObject({
      code: "BAD_GATEWAY",
      status: 502,
      message: "The chat agent failed while answering",
    });
  });

  it("throws when the stream ends before done, so a cut answer never looks complete", async () => {
    const { fetch } = streamingFetch([encoder.encode(delta("half"))]);
    await expect(collect(dashboardWith(fetch).chat.stream(hi))).rejects.toMatchObject({
      code: "BAD_GATEWAY",
    });
  });

  it("throws when the answer is not an event stream", async () => {
    const { fetch } = streamingFetch([encoder.encode("hello")], "text/plain");
    await expect(collect(dashboardWith(fetch).chat.stream(hi))).rejects.toMatchObject({
      code: "BAD_GATEWAY",
    });
  });

  it("cancels the body when the reader stops early, and sends the sessionId", async () => {
    const { fetch, seen } = streamingFetch([encoder.encode(delta("one")), encoder.encode(delta("two"))]);
    for await (const chunk of dashboardWith(fetch).chat.stream(hi, { sessionId: "abc" })) {
      expect(chunk).toBe("one");
      break;
    }
    expect(seen.cancelled).toBe(true);
    expect(JSON.parse(seen.bodies[0] ?? "")).toEqual({ messages: hi, sessionId: "abc" });
  });

  it("sends nothing when the signal is already aborted", async () => {
    const { fetch, seen } = streamingFetch([]);
    const chunks = await collect(dashboardWith(fetch).chat.stream(hi, { signal: AbortSignal.abort() }));
    expect(chunks).toEqual([]);
    expect(seen.bodies).toEqual([]);
  });
});
