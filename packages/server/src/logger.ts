import { logRedaction } from "@keyport/node-edge";
import { type Logger, pino } from "pino";

/**
 * The server's JSON logger, with secrets, tokens, signatures and SIWE messages redacted (see
 * `logRedaction` in @keyport/node-edge), and an `err` always in the shape `errorSummary` gives. `msg` (the log line's text) is not redacted: never put a
 * secret in it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  // pino's own `err` serializer adds `type` and `stack` and copies every property a driver attached
  // (postgres.js: the query and its parameters): an error is logged as `errorSummary` says instead.
  return pino({ level, redact: logRedaction(), serializers: { err: summariseErr } }, destination);
}

function summariseErr(value: unknown): unknown {
  return value instanceof Error ? errorSummary(value) : value;
}

/**
 * The name, code and message of the innermost error in a `cause` chain, without the extra
 * properties drivers attach (postgres.js: the query and its parameters) and without a stack: the
 * only shape an error takes in a log line (docs/security.md). Drizzle's wrapper repeats the SQL and
 * its parameters in its message; should it be the innermost, its message is replaced.
 */
export function errorSummary(error: unknown): { name: string; code?: string; message: string } {
  if (!(error instanceof Error)) return { name: "NonError", message: "a non-Error value was thrown" };
  let inner: Error = error;
  for (let depth = 0; depth < 5 && inner.cause instanceof Error; depth++) inner = inner.cause;
  const code: unknown = Reflect.get(inner, "code");
  return {
    name: inner.name,
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}),
    message: QUOTES_SQL.test(inner.message) ? "a database query failed" : inner.message,
  };
}

// Drizzle's "Failed query: <statement>\nparams: <values>".
const QUOTES_SQL = /^Failed query|\bparams:/;
