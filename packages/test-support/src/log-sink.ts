import { Writable } from "node:stream";

/**
 * A destination for the server's pino logger (`createLogger(level, sink)`) that pushes each line
 * written to it into `into`, as text or mapped (e.g. `JSON.parse`), so a test can read the log.
 * @example const lines: string[] = []; createApp(env, { logger: createLogger("info", logSink(lines)) })
 */
export function logSink(into: string[]): Writable;
export function logSink<T>(into: T[], map: (line: string) => T): Writable;
export function logSink<T>(into: (T | string)[], map?: (line: string) => T): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line !== "") into.push(map ? map(line) : line);
      done();
    },
  });
}
