import { describe, expect, it } from "vitest";
import { createDashboardClient } from "./dashboard-client.js";

/** A fetch answering with a body made of exactly these byte chunks; records whether the body was cancelled. */
function streamingFetch(chunks: Uint8Array[]) {
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
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, seen };
}

describe("chat.stream decoding", () => {
  it("yields UTF-8 text as it arrives, even when a character is split between chunks", async () => {
    const bytes = new TextEncoder().encode("data: café ☕\n\n");
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const { fetch } = streamingFetch([bytes.slice(0, split), bytes.slice(split)]);
    const dashboard = createDashboardClient({ baseUrl: "http://proxy.test", fetch });
    const chunks: string[] = [];
    for await (const chunk of dashboard.chat.stream([{ role: "user", content: "hi" }])) chunks.push(chunk);
    expect(chunks.join("")).toBe("data: café ☕\n\n");
    expect(chunks.every((chunk) => !chunk.includes("\uFFFD"))).toBe(true);
  });

  it("cancels the body when the reader stops early", async () => {
    const encoder = new TextEncoder();
    const { fetch, seen } = streamingFetch([encoder.encode("one"), encoder.encode("two")]);
    const dashboard = createDashboardClient({ baseUrl: "http://proxy.test", fetch });
    for await (const chunk of dashboard.chat.stream([{ role: "user", content: "hi" }], {
      sessionId: "abc",
    })) {
      expect(chunk).toBe("one");
      break;
    }
    expect(seen.cancelled).toBe(true);
    expect(JSON.parse(seen.bodies[0] ?? "")).toEqual({
      messages: [{ role: "user", content: "hi" }],
      sessionId: "abc",
    });
  });

  it("sends nothing when the signal is already aborted", async () => {
    const { fetch, seen } = streamingFetch([]);
    const dashboard = createDashboardClient({ baseUrl: "http://proxy.test", fetch });
    const chunks: string[] = [];
    for await (const chunk of dashboard.chat.stream([{ role: "user", content: "hi" }], {
      signal: AbortSignal.abort(),
    }))
      chunks.push(chunk);
    expect(chunks).toEqual([]);
    expect(seen.bodies).toEqual([]);
  });
});
