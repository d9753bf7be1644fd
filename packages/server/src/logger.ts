import { type Logger, pino } from "pino";

/** Field paths pino blanks out wherever they appear in a log object. */
export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
  "authorization",
  "cookie",
  "key",
  "*.key",
  "token",
  "*.token",
  "signature",
  "*.signature",
  // Top-level only: `err.message` must stay readable.
  "message",
  "secret",
  "*.secret",
  "input",
  "body",
];

/**
 * The server's JSON logger, with secrets, tokens, signatures and SIWE messages redacted. `msg` (the
 * log line's text) is not redacted: never put a secret in it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, destination);
}

/**
 * The name, code and message of the innermost error in a `cause` chain, without the extra
 * properties drivers attach: drizzle's wrapper repeats the SQL and its parameters in its message,
 * postgres.js attaches them as properties. For log lines on paths that touch keys.
 */
export function errorSummary(error: unknown): { name: string; code?: unknown; message: string } {
  if (!(error instanceof Error)) return { name: "NonError", message: "a non-Error value was thrown" };
  let inner: Error = error;
  for (let depth = 0; depth < 5 && inner.cause instanceof Error; depth++) inner = inner.cause;
  return { name: inner.name, code: Reflect.get(inner, "code"), message: inner.message };
}
