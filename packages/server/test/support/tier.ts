/**
 * Which tier runs this file: vitest.slow.config.ts sets KEYPORT_TEST_TIER=slow. A property test listed in
 * `longRuns` (vitest.config.ts) runs in both tiers: a few runs in `pnpm test`, so each behaviour is still
 * checked there, and the long run in `pnpm test:slow` (CI).
 */
export const SLOW_TIER = process.env.KEYPORT_TEST_TIER === "slow";

/**
 * fast-check's `numRuns` for this tier.
 * @example await fc.assert(property, { numRuns: propertyRuns({ fast: 20, slow: 200 }) });
 */
export function propertyRuns(runs: { fast: number; slow: number }): number {
  return SLOW_TIER ? runs.slow : runs.fast;
}
