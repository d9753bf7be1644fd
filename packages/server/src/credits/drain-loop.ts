import type { CreditsDrainer } from "./drainer.js";
import { JOURNAL_SHARDS } from "./layout.js";

const FINAL_DRAIN_MS = 5_000;
const MAX_ROUNDS_PER_SHARD = 20;

export interface DrainLoop {
  /** Stops the timer, waits for a pass under way, then drains every shard once more. */
  stop(): Promise<void>;
}

/**
 * Runs `drainer` over every shard each `intervalMs`; a shard whose batch was full is drained again
 * at once, up to 20 batches a pass. A failed pass (Redis or PostgreSQL down) is reported and retried on the next tick.
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
        // A full batch means a hot shard: keep draining it (bounded) so its journal cannot grow.
        for (let round = 0; round < MAX_ROUNDS_PER_SHARD && !stopped; round++) {
          const result = await drainer.drainShard(shard);
          onDrained(result.applied);
          if (!result.full) break;
        }
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
      // Bounded, so a Redis or database that stopped answering cannot hold the shutdown: what is
      // left stays in the journal for the other instances' drainers, or this one's next start.
      let deadline: NodeJS.Timeout | undefined;
      const bound = new Promise<"timeout">((resolve) => {
        deadline = setTimeout(() => resolve("timeout"), FINAL_DRAIN_MS);
      });
      try {
        const applied = await Promise.race([drainer.drainAll(), bound]);
        if (applied === "timeout") onError(new Error("the final credits drain did not finish in time"));
        else onDrained(applied);
      } catch (error) {
        onError(error);
      } finally {
        clearTimeout(deadline);
      }
    },
  };
}
