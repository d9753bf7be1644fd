/**
 * One time budget for a paid top-up (docs/payments.md#one-time-budget): how long a person or an
 * agent waits from sending a payment to its answer. Both servers derive their waits from it, so the
 * server always answers before the dashboard proxy gives up on it.
 */
export const TOP_UP_BUDGET_MS = 70_000;

/**
 * The margin the server leaves the proxy: the answer's way back, a busy event loop, a slow database
 * write of the answer.
 */
export const TOP_UP_MARGIN_MS = 10_000;

/**
 * How long the server works on a top-up request before it answers: credited, refused, or 503 "the
 * payment may still be credited" (the work goes on after it). Equal to x402's `maxTimeoutSeconds`
 * (60 s), the authorization's lifetime: a payment not settled by then never will be.
 */
export const TOP_UP_SERVER_MS = TOP_UP_BUDGET_MS - TOP_UP_MARGIN_MS;

/** How long the dashboard proxy waits for the server's answer to `keys.topUp`: the whole budget. */
export const TOP_UP_FORWARD_MS = TOP_UP_BUDGET_MS;

/**
 * What a top-up that ran out of time tells the person, wherever it runs out: the payment may still
 * be credited, and where to look.
 */
export const TOP_UP_TIMEOUT_MESSAGE =
  "The top-up took too long to confirm; the payment may still be credited: look at the key's credits in a minute, or send the same payment again to see its result";
