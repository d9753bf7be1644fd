/**
 * Which tier runs this file: vitest.slow.config.ts sets KEYPORT_TEST_TIER=slow. A property or concurrency
 * test listed in `longRuns` (vitest.config.ts) runs in both tiers: a few runs or a few dozen concurrent
 * requests in `pnpm test`, so each behaviour is still checked there, and the long run in `pnpm test:slow` (CI).
 */
export const SLOW_TIER = process.env.KEYPORT_TEST_TIER === "slow";

/**
 * fast-check's `numRuns` for this tier.
 * @example await fc.assert(property, { numRuns: propertyRuns({ fast: 20, slow: 200 }) });
 */
export function propertyRuns(runs: { fast: number; slow: number }): number {
  return SLOW_TIER ? runs.slow : runs.fast;
}

/**
 * A size for this tier: how many concurrent requests, keys or credits a test uses.
 * @example const credits = forTier({ fast: 8, slow: 20 });
 */
export function forTier<T>(sizes: { fast: T; slow: T }): T {
  return SLOW_TIER ? sizes.slow : sizes.fast;
}
