/**
 * Start of the fixed window that contains `nowMs`, in epoch milliseconds. Windows are aligned
 * to epoch multiples of their length so that separate processes agree on the boundaries.
 *
 * @example windowStart(90_500, 60) === 60_000
 */
export function windowStart(nowMs: number, windowSeconds: number): number {
  const lengthMs = windowSeconds * 1000;
  return nowMs - (nowMs % lengthMs);
}
