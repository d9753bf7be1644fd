import { REDIS_UNAVAILABLE_CODE } from "../credits/unavailable.js";

// Errors that mean "the database cannot be reached right now", not "this request is wrong":
// postgres.js connection errors, socket errors, and the SQLSTATEs of refused or dropped sessions.
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown: the session was terminated
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "53300", // too_many_connections
  "55000", // e.g. "database is not currently accepting connections"
  REDIS_UNAVAILABLE_CODE, // the Redis holding credit balances cannot answer (credits/unavailable.ts)
]);

/** The message of every 503 caused by the database. */
export const DATABASE_UNAVAILABLE = "The database is unavailable; retry shortly";

/**
 * True when `error` (or any error in its `cause` chain, as drizzle wraps driver errors) says the
 * database is unreachable: the request may succeed if retried, so it deserves a 503, not a 500.
 * @example isDatabaseUnavailable(Object.assign(new Error("x"), { code: "ECONNREFUSED" })) // true
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = Reflect.get(current, "code");
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) return true;
    current = current.cause;
  }
  return false;
}
