import { logHooks, logRedaction } from "@keyport/node-edge";
import { type DestinationStream, type Logger, pino } from "pino";
import { createBufferedStdout } from "./buffered-stdout.js";

/**
 * Creates the proxy's pino logger (redaction: `logRedaction` and `logHooks` in @keyport/node-edge); `destination` lets tests capture every line.
 * @example createLogger("info", { write: (line) => lines.push(line) })
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "dashboard-proxy" },
    redact: logRedaction(),
    // URLs down to scheme and host, errors to name, code and message, in every field and message.
    hooks: logHooks(),
  };
  return pino(options, destination ?? sharedStdout());
}

let shared: DestinationStream | undefined;

/**
 * Standard output for the proxy's log lines (pino's loggers and the access log): one buffered
 * writer, so their lines never interleave.
 */
export function sharedStdout(): DestinationStream {
  shared ??= createBufferedStdout({ chunkChars: 65_536, flushMs: 1_000 });
  return shared;
}
