import { type DestinationStream, pino } from "pino";

/** Options of {@link createBufferedStdout}. */
export interface BufferedStdoutOptions {
  /** Lines are handed to the writer in chunks of about this many characters. */
  chunkChars: number;
  /** A line waits at most this long. */
  flushMs: number;
}

/**
 * Standard output for log lines, written in chunks: lines gather in a string and go to one
 * asynchronous sonic-boom writer (pino's own) a chunk at a time, or once `flushMs` has passed. A
 * synchronous write per access line cost a cached request 6% of its CPU, and handing sonic-boom each
 * line (it measures its whole pending buffer on every write) about as much again. What is still
 * waiting when the process exits is written synchronously then; a SIGKILL loses at most a chunk or a
 * second of lines.
 */
export function createBufferedStdout(options: BufferedStdoutOptions): DestinationStream {
  const writer = pino.destination({ dest: 1, sync: false });
  let pending = "";
  const handOver = () => {
    if (pending === "") return;
    writer.write(pending);
    pending = "";
  };
  setInterval(handOver, options.flushMs).unref();
  // pino flushes the writer on exit; lines still gathering here are added to it first.
  process.on("exit", () => {
    handOver();
    try {
      writer.flushSync();
    } catch {
      // stdout is gone (closed pipe): nothing left to write to.
    }
  });
  return {
    write(line: string) {
      pending += line;
      if (pending.length >= options.chunkChars) handOver();
    },
  };
}
