import type { ErrorEnvelope } from "@keyport/errors";
import { CHAT_EVENTS } from "../schemas/chat.js";

// The one event stream the browser reads (schemas/chat.ts documents it). JSON.stringify never
// emits a raw newline, so each payload fits on one `data:` line whatever the agent wrote.

const encoder = new TextEncoder();

/** One text event: `data: {"delta":"..."}`. */
export function deltaEvent(text: string): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify({ delta: text })}\n\n`);
}

/** The end of a complete answer. */
export function doneEvent(): Uint8Array {
  return encoder.encode(`event: ${CHAT_EVENTS.done}\ndata: {}\n\n`);
}

/** The end of an answer cut short by the agent, carrying the error envelope. */
export function errorEvent(envelope: ErrorEnvelope): Uint8Array {
  return encoder.encode(`event: ${CHAT_EVENTS.error}\ndata: ${JSON.stringify(envelope)}\n\n`);
}

/** What `relayEvents` reports when the agent's stream fails (for the log: no message, no body). */
export type RelayFailure = (error: unknown) => void;

/**
 * Turns the agent's text deltas into the browser's event stream: one event per delta as it
 * arrives, then `done`; when the deltas throw, one `error` event (BAD_GATEWAY, fixed text) and the
 * end. `stop` is called when the browser cancels the body (it went away or pressed Stop), so the
 * upstream request is aborted instead of read into nowhere.
 */
export function relayEvents(
  deltas: AsyncIterable<string>,
  stop: () => void,
  onFailure: RelayFailure,
): ReadableStream<Uint8Array> {
  const iterator = deltas[Symbol.asyncIterator]();
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (finished) return;
      try {
        // A pull that enqueues nothing is not called again: skip empty deltas here.
        for (;;) {
          const next = await iterator.next();
          if (next.done) {
            finished = true;
            controller.enqueue(doneEvent());
            controller.close();
            return;
          }
          if (next.value !== "") {
            controller.enqueue(deltaEvent(next.value));
            return;
          }
        }
      } catch (error) {
        if (finished) return;
        finished = true;
        onFailure(error);
        controller.enqueue(
          errorEvent({ code: "BAD_GATEWAY", message: "The chat agent failed while answering" }),
        );
        controller.close();
      }
    },
    cancel() {
      finished = true;
      stop();
    },
  });
}
