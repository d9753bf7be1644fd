/**
 * The cause of a `TOO_MANY_REQUESTS` refusal: how many whole seconds until the caller may try again.
 * The REST surface sends it as `Retry-After` (see `sendError` in http/errors.ts).
 * @example throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: "...", cause: new RetryAfter(42) });
 */
export class RetryAfter extends Error {
  override name = "RetryAfter";
  constructor(readonly seconds: number) {
    super(`Retry after ${seconds} s`);
  }
}

/** Seconds from now until `resetAt`, rounded up, at least 1: what a `Retry-After` header says. */
export function secondsUntil(resetAt: Date, nowMs: number): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - nowMs) / 1000));
}

/** The `Retry-After` seconds a thrown error carries (a `RetryAfter`, or an error caused by one), if any. */
export function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof RetryAfter) return error.seconds;
  if (error instanceof Error && error.cause instanceof RetryAfter) return error.cause.seconds;
  return undefined;
}
