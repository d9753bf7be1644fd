import { TRPCError } from "@trpc/server";

/**
 * The longest a request waits on the server's dependencies (database, Redis, an RPC node) before
 * it answers 503. postgres.js queues a query while it (re)connects, and a request makes several
 * queries in turn, so without a bound of its own a request could wait through a database outage
 * for as long as the outage lasts. Work still running at the deadline goes on, but its answer is
 * dropped: a verification past its deadline is not counted; a change past its deadline may or may
 * not be applied, as with any 503 (the caller retries or reads back).
 */
export const REQUEST_DEADLINE_MS = 5_000;

/** The message of every 503 answered at the deadline. */
export const DEADLINE_MESSAGE = "The service did not answer in time; retry shortly";

/** The error a request gets at its deadline: 503 SERVICE_UNAVAILABLE. */
export function deadlineError(): TRPCError {
  return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DEADLINE_MESSAGE });
}

/** Set when a request's deadline passes; work checks it before effects the caller would never hear of. */
export interface Deadline {
  aborted: boolean;
}

/**
 * Settles like `work`, or rejects with `deadlineError()` after `ms` (and sets `deadline.aborted`)
 * if `work` has not settled by then.
 * @example const d = { aborted: false }; await raceDeadline(verifier.verify(key, d), REQUEST_DEADLINE_MS, d)
 */
export function raceDeadline<T>(work: Promise<T>, ms: number, deadline: Deadline): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.aborted = true;
      reject(deadlineError());
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * Runs `work` with a fresh `Deadline` and races it against `ms`.
 * @example await withDeadline(REQUEST_DEADLINE_MS, (deadline) => next({ ctx: { ...ctx, deadline } }))
 */
export function withDeadline<T>(ms: number, work: (deadline: Deadline) => Promise<T>): Promise<T> {
  const deadline: Deadline = { aborted: false };
  return raceDeadline(work(deadline), ms, deadline);
}
