/**
 * The agent's body as UTF-8 text, piece by piece as it arrives (a character split between network
 * chunks is held until it is whole). Leaving the loop early cancels the body. A plain-text agent's
 * pieces are its deltas as they are; an OpenAI-style one's go through `openAiDeltas`.
 */
export async function* textDeltas(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let complete = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      const text = decoder.decode(chunk.value, { stream: true });
      if (text !== "") yield text;
    }
    complete = true;
    const rest = decoder.decode();
    if (rest !== "") yield rest;
  } finally {
    // Stopped early (the consumer left, or a later step failed): release the upstream connection.
    if (!complete) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
