import { afterAll, beforeAll, vi } from "vitest";

/** Moves the fake `Date` of {@link useMovableDate} forward. */
export interface MovableDate {
  /** Jumps `Date.now()` forward by `ms`, as if that much time had passed. */
  advance(ms: number): void;
}

/**
 * Runs the apps a describe block starts in-process on a fake `Date` that follows real time and can be
 * moved forward by hand, so expiries, session TTLs and grace periods pass without waiting for them.
 * Timers stay real (sockets, databases). Call it first in the block: the app's verifier reads
 * `Date.now` when it is created, so the fake must be in place before the hooks that start apps.
 * @example
 * const clock = useMovableDate();
 * beforeAll(async () => { server = await startTestServer(target); });
 * it("expires", async () => { clock.advance(1_501); ... });
 */
export function useMovableDate(): MovableDate {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  return { advance: (ms) => vi.setSystemTime(Date.now() + ms) };
}

/**
 * Waits, when the current fixed window of `windowSeconds` ends within `marginMs`, until the next
 * one has begun. Rate-limit windows are aligned to the epoch (a day's rolls over at 00:00 UTC), so
 * a test that counts exactly within one window must not straddle its edge: a CI run at midnight
 * found one that did. Reads `Date.now()`, so it also works under {@link useMovableDate}.
 * @example await clearOfWindowEdge(86_400); // then create the key and count
 */
export async function clearOfWindowEdge(windowSeconds: number, marginMs = 30_000): Promise<void> {
  const length = windowSeconds * 1000;
  const left = length - (Date.now() % length);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
