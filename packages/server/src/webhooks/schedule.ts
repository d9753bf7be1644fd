/**
 * Standard Webhooks' retry schedule (docs/webhooks.md, "Delivery"): after the first attempt fails
 * the next comes 5 s later, then 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: eight attempts over about
 * 27 hours, then the delivery fails and its endpoint is disabled.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** Each delay moves by up to this fraction either way, so endpoints that failed together do not retry together. */
export const JITTER = 0.1;

/**
 * How long after failed attempt number `attempts` (1 for the first) the next one is due, with
 * jitter from `random` (a number in [0, 1), as Math.random gives); undefined when that was the last.
 * @example retryDelayMs(1, () => 0.5) // 5000
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number | undefined {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}
