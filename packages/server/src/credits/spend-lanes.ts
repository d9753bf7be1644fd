/** An operation waiting in its lane, settled by the batch that carries it. */
export interface Waiting<Op, Result> {
  readonly op: Op;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Runs one batch of a lane: it must settle every operation of `batch` (resolve or reject each);
 * whatever it leaves unsettled when it throws is rejected with that error.
 */
export type BatchRunner<Op, Result> = (lane: string, batch: Waiting<Op, Result>[]) => Promise<void>;

/**
 * Coalesces operations per lane (a balance): while a batch of a lane is running, further operations
 * of that lane wait, and when it settles everything waiting goes as the next batch (at most
 * `maxBatch`), in arrival order. No timer: an operation on an idle lane starts at once, in the
 * caller's tick, so a lone spend's latency is unchanged; under load one call carries many.
 * @example const submit = createSpendLanes(runBatch, 256); const result = await submit(creditsId, op);
 */
export function createSpendLanes<Op, Result>(
  runBatch: BatchRunner<Op, Result>,
  maxBatch: number,
): (lane: string, op: Op) => Promise<Result> {
  const lanes = new Map<string, Waiting<Op, Result>[]>();

  async function pump(lane: string, queue: Waiting<Op, Result>[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        await runBatch(lane, batch);
      } catch (error) {
        // A settled promise ignores the second settlement: only the unsettled ones see the error.
        for (const waiting of batch) waiting.reject(error);
      }
    }
    lanes.delete(lane);
  }

  return (lane, op) =>
    new Promise<Result>((resolve, reject) => {
      const waiting = { op, resolve, reject };
      const queue = lanes.get(lane);
      if (queue !== undefined) {
        queue.push(waiting);
        return;
      }
      const fresh = [waiting];
      lanes.set(lane, fresh);
      void pump(lane, fresh);
    });
}
