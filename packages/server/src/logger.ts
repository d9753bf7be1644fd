import { logRedaction } from "@keyport/node-edge";
import { type Logger, pino } from "pino";

/**
 * The server's JSON logger, with secrets, tokens, signatures and SIWE messages redacted (see
 * `logRedaction` in @keyport/node-edge). `msg` (the log line's text) is not redacted: never put a
 * secret in it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: logRedaction() }, destination);
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
