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
