import { type DestinationStream, type Logger, pino } from "pino";
import { createBufferedStdout } from "./buffered-stdout.js";

/**
 * Paths censored in every log line. We never log headers, bodies or settings, so these are a
 * second line of defence should someone add such a field later.
 */
export const REDACTED_PATHS = [
  "apiKey",
  "*.apiKey",
  "authorization",
  "*.authorization",
  "*.headers.authorization",
  '*.headers["x-cg-demo-api-key"]',
  '*.headers["x-cg-pro-api-key"]',
  "COINGECKO_API_KEY",
  "AGENT_API_KEY",
  "*.COINGECKO_API_KEY",
  "*.AGENT_API_KEY",
];

/**
 * Creates the proxy's pino logger; `destination` lets tests capture every line.
 * @example createLogger("info", { write: (line) => lines.push(line) })
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "dashboard-proxy" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
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
