import { AgentStreamError, IdleWatch, type StreamBounds } from "./stream-bounds.js";

/** How `textDeltas` reads: its bounds and, for an event stream, the watch its parser restarts per event. */
export interface TextDeltaOptions {
  bounds: StreamBounds;
  /** Given: the body is an event stream whose lines are bounded, and the caller marks its events. Absent: each piece is an event. */
  events?: IdleWatch;
}

const LF = 0x0a;
const CR = 0x0d;
const IDLE = Symbol("idle");

/**
 * The agent's body as UTF-8 text, piece by piece as it arrives (a character split between network
 * chunks is held until it is whole). Leaving the loop early cancels the body. A plain-text agent's
 * pieces are its deltas as they are; an OpenAI-style one's go through `openAiDeltas`. Throws
 * AgentStreamError past the answer's bytes, a line's bytes (event streams) or the idle time: the
 * body is then cancelled, which closes the upstream connection.
 */
export async function* textDeltas(
  body: ReadableStream<Uint8Array>,
  options: TextDeltaOptions,
): AsyncGenerator<string, void, undefined> {
  const { bounds } = options;
  const watch = options.events ?? new IdleWatch(bounds.idleMs);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let answerBytes = 0;
  let lineBytes = 0;
  let complete = false;
  try {
    for (;;) {
      const chunk = await readWithin(reader, watch);
      if (chunk.done) break;
      const bytes = chunk.value;
      answerBytes += bytes.byteLength;
      if (answerBytes > bounds.answerBytes) throw new AgentStreamError("answer too long");
      if (options.events !== undefined) {
        // Checked on bytes before the parser sees them: it keeps an unfinished line whole.
        const end = Math.max(bytes.lastIndexOf(LF), bytes.lastIndexOf(CR));
        lineBytes = end === -1 ? lineBytes + bytes.byteLength : bytes.byteLength - end - 1;
        if (lineBytes > bounds.lineBytes) throw new AgentStreamError("line too long");
      } else {
        watch.event();
      }
      const text = decoder.decode(bytes, { stream: true });
      if (text !== "") yield text;
    }
    complete = true;
    const rest = decoder.decode();
    if (rest !== "") yield rest;
  } finally {
    // Stopped early (the consumer left, a bound, or a later step failed): release the upstream connection.
    if (!complete) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** One read, given up (AgentStreamError "idle") when the watch's time runs out first. */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  watch: IdleWatch,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<typeof IDLE>((resolve) => {
    timer = setTimeout(() => resolve(IDLE), watch.remainingMs());
  });
  try {
    const result = await Promise.race([reader.read(), idle]);
    if (result === IDLE) throw new AgentStreamError("idle");
    return result;
  } finally {
    clearTimeout(timer);
    watch.waited(performance.now() - started);
  }
}
