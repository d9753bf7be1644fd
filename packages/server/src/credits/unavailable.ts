/** The `code` of an error meaning the Redis holding credit balances cannot answer now: a 503, like a database outage. */
export const REDIS_UNAVAILABLE_CODE = "REDIS_UNAVAILABLE";

/**
 * The error a credits spend or read throws when Redis cannot answer (down, reconnecting, a balance
 * fenced for longer than the store waits): the routes answer 503 through the database-outage
 * mapping (db/unavailable.ts), so a metered key fails closed.
 */
export function creditsUnavailable(cause?: unknown): Error {
  return Object.assign(new Error("credits store unavailable", { cause }), { code: REDIS_UNAVAILABLE_CODE });
}
