import { errorSummary, logHooks, logRedaction } from "@keyport/node-edge";
import { type Logger, pino } from "pino";

/**
 * The server's JSON logger: every URL in a field or the message text reduced to scheme and host and
 * every error to `errorSummary`'s shape (`logHooks`), secrets, tokens, signatures and SIWE messages
 * censored by field name (`logRedaction`), both from @keyport/node-edge. `msg` is only URL-redacted:
 * never put a secret in it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  // pino's own `err` serializer adds `type` and `stack` and copies every property a driver attached
  // (postgres.js: the query and its parameters): an error is logged as `errorSummary` says instead.
  return pino(
    { level, redact: logRedaction(), hooks: logHooks(), serializers: { err: summariseErr } },
    destination,
  );
}

function summariseErr(value: unknown): unknown {
  return value instanceof Error ? errorSummary(value) : value;
}

/** An error as a log line shows it (see `errorSummary` in @keyport/node-edge). */
export { errorSummary };
