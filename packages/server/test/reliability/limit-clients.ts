import type { TimedAdmission } from "./sliding-guarantee.js";
import { type Target, verifyOnce } from "./spend-clients.js";

/** How one verification ended, as its client saw it. */
export type LimitOutcome =
  | "VALID"
  | "RATE_LIMITED"
  /** Any other answer: never expected here. */
  | "other"
  /** A 5xx answer. */
  | "5xx"
  /** The connection broke (reset, hang-up) or no answer within the client's bound: admitted or not, unknown. */
  | "cut"
  /** The connection was refused: the request never reached a server. */
  | "refused";

/** Everything the clients saw: every outcome's count, the admitted requests' round trips, latencies. */
export interface LimitTally {
  counts: Record<LimitOutcome, number>;
  admitted: TimedAdmission[];
  /** Round trip of every answered request (ms). */
  latencies: number[];
  /** The first few unexpected answers, in words. */
  unexpected: string[];
  /** Answers (VALID or RATE_LIMITED) by target, and the last moment each target answered. */
  byTarget: Map<string, { answers: number; lastAt: number }>;
}

export function newLimitTally(): LimitTally {
  return {
    counts: { VALID: 0, RATE_LIMITED: 0, other: 0, "5xx": 0, cut: 0, refused: 0 },
    admitted: [],
    latencies: [],
    unexpected: [],
    byTarget: new Map(),
  };
}

/** How long a client waits after a 5xx, a cut or a refusal before its next request. */
const RETRY_PAUSE_MS = 50;

/**
 * Runs `clients` concurrent loops, client i on target i mod n (or the next one up when its own is
 * down), each verifying `key` (its auto-applied limits, cost 1) back to back until `stop()`,
 * recording each answer's send and receive time on performance.now().
 */
export async function verifyUntil(options: {
  targets: Target[];
  key: string;
  clients: number;
  tally: LimitTally;
  stop: () => boolean;
  /** While this returns true, clients send nothing (requests in flight finish). */
  paused?: () => boolean;
  timeoutMs?: number;
}): Promise<void> {
  const { targets, tally } = options;
  const body = JSON.stringify({ key: options.key });
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pickTarget = (client: number): Target | undefined => {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(client + i) % targets.length];
      if (target?.up) return target;
    }
    return undefined;
  };
  const client = async (index: number) => {
    while (!options.stop()) {
      if (options.paused?.()) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      const target = pickTarget(index);
      if (target === undefined) throw new Error("no server instance is up");
      const sentAt = performance.now();
      const exchange = await verifyOnce(target, body, timeoutMs, ["VALID", "RATE_LIMITED"] as const);
      const receivedAt = performance.now();
      // No answer within the bound is as unknown as a broken connection.
      const outcome = { ...exchange, kind: exchange.kind === "timeout" ? "cut" : exchange.kind };
      tally.counts[outcome.kind] += 1;
      if (outcome.kind === "VALID") tally.admitted.push({ sentAt, receivedAt });
      if (outcome.kind === "VALID" || outcome.kind === "RATE_LIMITED") {
        tally.latencies.push(receivedAt - sentAt);
        const seen = tally.byTarget.get(target.baseUrl) ?? { answers: 0, lastAt: 0 };
        tally.byTarget.set(target.baseUrl, { answers: seen.answers + 1, lastAt: receivedAt });
      }
      if (outcome.kind === "other" && tally.unexpected.length < 20) tally.unexpected.push(outcome.detail);
      if (outcome.kind !== "VALID" && outcome.kind !== "RATE_LIMITED")
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
}
