import type { CreditsDrainer } from "./drainer.js";
import { JOURNAL_SHARDS } from "./layout.js";

export interface DrainLoop {
  /** Stops the timer, waits for a pass under way, then drains every shard once more. */
  stop(): Promise<void>;
}

/**
 * Runs `drainer` over every shard each `intervalMs` (a shard whose batch was full is drained again
 * at once). A failed pass (Redis or PostgreSQL down) is reported and retried on the next tick.
 * @example const loop = startDrainLoop(drainer, 200, { ready: () => true, onError: console.error }); await loop.stop();
 */
export function startDrainLoop(
  drainer: CreditsDrainer,
  intervalMs: number,
  hooks: {
    /** False while Redis is not connected: the pass is skipped (its commands would only queue). */
    ready: () => boolean;
    onError: (error: unknown) => void;
    /** After each shard's pass that succeeded, with the entries it applied. */
    onDrained?: (applied: number) => void;
  },
): DrainLoop {
  const { ready, onError } = hooks;
  const onDrained = hooks.onDrained ?? (() => undefined);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function pass(): Promise<void> {
    for (let shard = 0; shard < JOURNAL_SHARDS && !stopped && ready(); shard++) {
      try {
        onDrained((await drainer.drainShard(shard)).applied);
      } catch (error) {
        onError(error);
        return;
      }
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, intervalMs);
    timer.unref();
  }
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      if (!ready()) return;
      try {
        onDrained(await drainer.drainAll());
      } catch (error) {
        onError(error);
      }
    },
  };
}
