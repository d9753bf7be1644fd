/** Runs `task(i)` for i in [0, count) with at most `parallel` at once; results in index order. */
export async function runPool<T>(
  count: number,
  parallel: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return results;
}
