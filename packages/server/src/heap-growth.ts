import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it
 * collects again, in percent. V8's own choice under the bench's load was up to 3x (old space 40 MB
 * live, 80-130 MB held), which is most of the server's RSS growth under load; 20 % holds it near
 * 50 MB at no measurable cost in verifications a second (docs/benchmarks.md#memory).
 */
const HEAP_GROWING_PERCENT = 20;

/**
 * Bounds the old generation's growth between full collections. Set at start, in the process, so
 * every way of launching the server (`pnpm start`, the root launcher, the bench, tests) gets it
 * without a node flag of its own; V8 reads the setting at each full collection.
 * @example limitHeapGrowth(); // first thing in main
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
