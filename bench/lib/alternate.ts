import { type LoadSpec, type Measurement, measureLoad } from "./load.js";

/** One side of a comparison: a scenario or its baseline. */
export interface Contestant {
  key: string;
  spec: LoadSpec;
  /** Overrides the run's connection count (e.g. 1 for a single client's latency). */
  connections?: number;
  /** A floor under the run's duration, for slow requests that need time to give a median. */
  minDurationSeconds?: number;
}

/** How long and how hard each measurement runs. */
export interface AlternateSettings {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  log: (line: string) => void;
}

/**
 * Measures every contestant once per round, rounds interleaved (a, b, c, then b, c, a, ...), so a
 * scenario and its baseline see the same machine state and no one always goes first. Each
 * measurement follows a discarded warmup on the same settings.
 */
export async function measureAlternating(
  contestants: readonly Contestant[],
  settings: AlternateSettings,
): Promise<Map<string, Measurement[]>> {
  const results = new Map<string, Measurement[]>(contestants.map((c) => [c.key, []]));
  for (let round = 0; round < settings.rounds; round++) {
    const order = contestants.map((_, i) => contestants[(i + round) % contestants.length]);
    for (const contestant of order) {
      if (contestant === undefined) continue;
      const load = { connections: contestant.connections ?? settings.connections };
      if (settings.warmupSeconds > 0) {
        await measureLoad(contestant.spec, { ...load, durationSeconds: settings.warmupSeconds });
      }
      const measured = await measureLoad(contestant.spec, {
        ...load,
        durationSeconds: Math.max(settings.durationSeconds, contestant.minDurationSeconds ?? 0),
      });
      results.get(contestant.key)?.push(measured);
      const failures = measured.non2xx + measured.errors;
      settings.log(
        `  round ${round + 1}/${settings.rounds} ${contestant.key.padEnd(28)} ${measured.rps.toFixed(0).padStart(7)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms${failures > 0 ? `  FAILURES ${failures}` : ""}`,
      );
    }
  }
  return results;
}
