import { type RedisServer, startRedisServer } from "@keyport/test-support/redis-server";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryLimitStore } from "../../src/ratelimit/memory-limits.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "../support/databases.js";
import { createKeyOver } from "../support/keys.js";
import { type ServerProcess, spawnServer } from "../support/process.js";
import { type LimitTally, newLimitTally, verifyUntil } from "./limit-clients.js";
import { checkSlidingGuarantee, type TimedAdmission } from "./sliding-guarantee.js";
import { newTarget, type Target } from "./spend-clients.js";

// The sliding-window guarantee end to end (docs/verifying-keys.md#sliding-windows): two server
// processes on one PostgreSQL database and one redis-server of this test's own, one key with an
// auto-applied limit of 40 per 2 s, 200 keep-alive clients verifying it back to back for 10
// windows. From each VALID answer's send and receive time, every interval [a, b] with b − a <= W
// must hold at most limit + ceil(limit × (b − a) / W) admissions certainly inside it (sound under
// any latency: see sliding-guarantee.ts). Then the same with one instance SIGKILLed midway, and
// with Redis killed and started again without its data (docs/verifying-keys.md#when-redis-is-down):
// the window the restart falls in is left out, the guarantee holds from the next one. The checker
// is shown to fail where the guarantee does not hold: a fixed window's edge burst (first block) and
// two processes that count on their own, without Redis (last test).

const LIMIT = 40;
const WINDOW_SECONDS = 2;
const W = WINDOW_SECONDS * 1_000;
const CLIENTS = 200;
const WINDOWS = 10;
/** How long Redis stays down between its kill and its restart. */
const REDIS_DOWN_MS = 300;

/** Epoch ms minus performance.now(): window edges on the clients' clock. */
const EPOCH_OFFSET = Date.now() - performance.now();
const windowIndex = (at: number) => Math.floor((at + EPOCH_OFFSET) / W);
const windowEdge = (index: number) => index * W - EPOCH_OFFSET;

/** A fixed-window counter (what the guarantee rules out): the first `limit` of each aligned window. */
function fixedWindowAdmits(times: readonly number[], limit: number): number[] {
  const counts = new Map<number, number>();
  return times.filter((at) => {
    const window = Math.floor(at / W);
    const used = counts.get(window) ?? 0;
    if (used >= limit) return false;
    counts.set(window, used + 1);
    return true;
  });
}

/** The sliding limit of src/ratelimit (the in-process store) over the same demand. */
async function slidingAdmits(times: readonly number[], limit: number): Promise<number[]> {
  const store = createMemoryLimitStore();
  const admitted: number[] = [];
  for (const at of times) {
    const outcome = await store.apply(
      "0xchecker",
      [{ id: "k:checker:burst", limit, windowMs: W, cost: 1 }],
      at,
    );
    if (outcome.allowed) admitted.push(at);
  }
  return admitted;
}

/** Round trips of `latencyMs` around each admission moment, the admission anywhere inside. */
const roundTrips = (times: readonly number[], latencyMs: (i: number) => number): TimedAdmission[] =>
  times.map((at, i) => {
    const latency = latencyMs(i);
    const before = (latency * ((i * 7919) % 101)) / 100;
    return { sentAt: at - before, receivedAt: at - before + latency };
  });

/** Demand of 2 × limit in the 10 ms around an aligned edge, plus a little traffic before and after. */
function edgeBurst(limit: number): number[] {
  const edge = 50 * W;
  const times: number[] = [];
  for (let at = edge - W; at < edge - 50; at += 200) times.push(at);
  for (let i = 0; i < 2 * limit; i++) times.push(edge - 5 + (10 * i) / (2 * limit));
  for (let at = edge + 50; at < edge + W; at += 200) times.push(at);
  return times;
}

describe("the interval checker", () => {
  it("flags a fixed window's edge burst (2 × limit within 10 ms) and passes the sliding limit's answer to the same demand", async () => {
    const demand = edgeBurst(LIMIT);
    const fixed = fixedWindowAdmits(demand, LIMIT);
    const sliding = await slidingAdmits(demand, LIMIT);
    // Admitted within 10 ms: the fixed window takes 2 × limit minus what came before the edge.
    const burstMs = (set: number[]) => set.filter((at) => Math.abs(at - 50 * W) <= 5).length;
    expect(burstMs(fixed)).toBeGreaterThan(LIMIT + 10);
    expect(burstMs(sliding)).toBeLessThanOrEqual(LIMIT + 1);
    for (const latency of [0.5, 2, 20]) {
      const fixedCheck = checkSlidingGuarantee(
        roundTrips(fixed, () => latency),
        LIMIT,
        W,
      );
      expect(fixedCheck.breach, `fixed window, ${latency} ms round trips`).toBeDefined();
      expect(
        checkSlidingGuarantee(
          roundTrips(sliding, () => latency),
          LIMIT,
          W,
        ).breach,
      ).toBeUndefined();
    }
  });

  it("never flags the sliding limit's admissions, however long and uneven the round trips", async () => {
    // A burst of 2 × limit at 0, saturating demand (one request a millisecond) for 10 windows, then the edge burst.
    const demand = [
      ...Array.from({ length: 2 * LIMIT }, () => 0),
      ...Array.from({ length: 10 * W }, (_, i) => i),
      ...edgeBurst(LIMIT),
    ];
    const sliding = await slidingAdmits(demand, LIMIT);
    expect(sliding.length).toBeGreaterThan(10 * LIMIT);
    // The tightest interval is the first burst, exactly at its bound with no latency.
    const exact = checkSlidingGuarantee(
      roundTrips(sliding, () => 0),
      LIMIT,
      W,
    );
    expect(exact.breach).toBeUndefined();
    expect(exact.tightest.admitted).toBe(exact.tightest.bound);
    for (const spread of [1, 50, 500, 1_900]) {
      const check = checkSlidingGuarantee(
        roundTrips(sliding, (i) => (((i * 104_729) % 1_000) / 1_000) * spread),
        LIMIT,
        W,
      );
      expect(check.breach, `round trips up to ${spread} ms`).toBeUndefined();
    }
  });

  it("leaves out intervals starting before `from`", () => {
    const burst = roundTrips(
      Array.from({ length: 2 * LIMIT }, (_, i) => 1_000 + i / 10),
      () => 1,
    );
    expect(checkSlidingGuarantee(burst, LIMIT, W).breach).toBeDefined();
    expect(checkSlidingGuarantee(burst, LIMIT, W, 1_100).breach).toBeUndefined();
  });
});

interface PhaseResult {
  tally: LimitTally;
  ms: number;
  /** performance.now() when the traffic started. */
  started: number;
  /** VALID answers by the aligned window they arrived in, from the first. */
  perWindow: number[];
}

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

function summary(name: string, result: PhaseResult, extra: Record<string, unknown> = {}) {
  const { tally } = result;
  const line = {
    requests: Object.values(tally.counts).reduce((sum, n) => sum + n, 0),
    counts: tally.counts,
    admittedPerWindow: result.perWindow,
    latencyMs: {
      p50: Math.round(quantile(tally.latencies, 0.5)),
      p99: Math.round(quantile(tally.latencies, 0.99)),
      max: Math.round(tally.latencies.reduce((max, ms) => Math.max(max, ms), 0)),
    },
    ms: result.ms,
    unexpected: tally.unexpected,
    ...extra,
  };
  console.info(`sliding limits ${name} ${JSON.stringify(line)}`);
}

describe.runIf(TEST_DATABASE_URL)(
  "sliding limits on two server processes sharing Redis [postgres + redis-server]",
  () => {
    let database: { url: string; drop(): Promise<void> };
    let redis: RedisServer;
    let token: string;
    const servers: ServerProcess[] = [];

    const startInstance = () => spawnServer({ DATABASE_URL: database.url, REDIS_URL: redis.url });
    const living = () =>
      servers.filter((server) => server.child.exitCode === null && server.child.signalCode === null);
    const twoInstances = async () => {
      while (living().length < 2) servers.push(await startInstance());
      const [a, b] = living();
      if (!a || !b) throw new Error("two instances expected");
      return [a, b] as const;
    };

    beforeAll(async () => {
      if (!TEST_DATABASE_URL) return;
      database = await createPostgresTestDatabase(TEST_DATABASE_URL);
      // No append-only file: a restart starts with no data, as after a Redis that lost it.
      redis = await startRedisServer({ args: ["--appendonly", "no"] });
      await twoInstances();
      const first = servers[0];
      if (!first) throw new Error("no server");
      token = (await signIn(first.baseUrl)).token;
    }, 120_000);

    afterAll(async () => {
      if (!TEST_DATABASE_URL) return;
      await Promise.all(living().map((server) => server.stop("SIGTERM")));
      await redis?.close();
      await database?.drop();
    }, 60_000);

    /** A fresh key (its limits start empty) and `windows` windows of traffic, `during` running alongside. */
    const runPhase = async (
      targets: Target[],
      during: (tally: LimitTally) => Promise<void> = async () => {},
      windows = WINDOWS,
      paused?: () => boolean,
    ): Promise<PhaseResult> => {
      const [a] = living();
      if (!a) throw new Error("no server");
      const created = await createKeyOver(a.baseUrl, token, {
        name: "sliding",
        rateLimits: [{ name: "burst", limit: LIMIT, windowSeconds: WINDOW_SECONDS, autoApply: true }],
      });
      const tally = newLimitTally();
      const started = performance.now();
      const traffic = verifyUntil({
        targets,
        key: created.key,
        clients: CLIENTS,
        tally,
        stop: () => performance.now() - started >= windows * W,
        ...(paused === undefined ? {} : { paused }),
      });
      await Promise.all([traffic, during(tally)]);
      for (const target of targets) target.agent.destroy();
      const first = windowIndex(started);
      const perWindow = Array.from({ length: windows + 1 }, () => 0);
      for (const { receivedAt } of tally.admitted) {
        const index = windowIndex(receivedAt) - first;
        perWindow[index] = (perWindow[index] ?? 0) + 1;
      }
      return { tally, ms: Math.round(performance.now() - started), started, perWindow };
    };

    /** What every phase must show: answers only VALID or RATE_LIMITED (faults aside), and enough of both. */
    const expectBusy = (result: PhaseResult) => {
      const { counts } = result.tally;
      expect(result.tally.unexpected).toEqual([]);
      expect(counts.other).toBe(0);
      // The limit was under pressure the whole time: refusals, and about `LIMIT` admitted a window.
      expect(counts.RATE_LIMITED).toBeGreaterThan(10 * counts.VALID);
      expect(counts.VALID).toBeGreaterThan((WINDOWS * LIMIT) / 2);
    };

    it("two instances, 200 clients, 10 windows: no interval of length t <= W admits more than limit + ceil(limit × t / W)", async () => {
      const [a, b] = await twoInstances();
      const result = await runPhase([newTarget(a.baseUrl), newTarget(b.baseUrl)]);
      const check = checkSlidingGuarantee(result.tally.admitted, LIMIT, W);
      // Would this run's latencies have hidden a fixed window's edge burst? 2 × limit admitted
      // within 10 ms, each round trip this run's p99 long: flagged.
      const p99 = quantile(result.tally.latencies, 0.99);
      const fixed = fixedWindowAdmits(edgeBurst(LIMIT), LIMIT);
      const fixedCheck = checkSlidingGuarantee(
        roundTrips(fixed, () => p99),
        LIMIT,
        W,
      );
      summary("two instances", result, { check, fixedWindowAtP99: fixedCheck.breach });
      expectBusy(result);
      const { counts } = result.tally;
      expect(counts["5xx"] + counts.cut + counts.refused).toBe(0);
      expect(check.breach).toBeUndefined();
      expect(check.intervals).toBeGreaterThan(WINDOWS * LIMIT);
      expect(fixedCheck.breach).toBeDefined();
    });

    it("the same with one instance SIGKILLed midway: its clients move to the survivor, the guarantee holds throughout", async () => {
      const [a, b] = await twoInstances();
      const targets = [newTarget(a.baseUrl), newTarget(b.baseUrl)];
      let killedAt = 0;
      const result = await runPhase(targets, async () => {
        await new Promise((resolve) => setTimeout(resolve, (WINDOWS / 2) * W));
        const victim = targets[1];
        if (victim) victim.up = false;
        killedAt = performance.now();
        await b.stop("SIGKILL");
      });
      const check = checkSlidingGuarantee(result.tally.admitted, LIMIT, W);
      const afterKill = result.tally.admitted.filter(({ sentAt }) => sentAt > killedAt).length;
      const killed = result.tally.byTarget.get(b.baseUrl);
      summary("SIGKILL", result, {
        check,
        admittedAfterKill: afterKill,
        killedAtMs: Math.round(killedAt - result.started),
        killedInstance: killed && {
          answers: killed.answers,
          lastAtMs: Math.round(killed.lastAt - result.started),
        },
      });
      expectBusy(result);
      const { counts } = result.tally;
      // Only requests in flight to the killed instance may be cut (its clients then move on).
      expect(counts["5xx"]).toBe(0);
      expect(counts.cut + counts.refused).toBeLessThanOrEqual(CLIENTS);
      // The killed instance died of the SIGKILL; it answered before it (answers it had already
      // written may be read a little later) and never after.
      expect(b.child.signalCode).toBe("SIGKILL");
      expect(killed?.answers).toBeGreaterThan(0);
      expect(killed?.lastAt ?? Number.POSITIVE_INFINITY).toBeLessThan(killedAt + 1_000);
      expect(afterKill).toBeGreaterThan(((WINDOWS / 2 - 1) * LIMIT) / 2);
      expect(check.breach).toBeUndefined();
    });

    it("after Redis restarts without its data, limits may start empty; the guarantee holds again from the next window", async () => {
      const [a, b] = await twoInstances();
      let restoredAt = 0;
      let downAt = 0;
      // Two whole windows of silence after the restart window's successor, then the clients all at
      // once: the previous window is empty, so both instances together may admit `limit` at once and
      // no more (each on its own would admit `limit`: 2 × limit within a round trip, flagged).
      const silence = { from: Number.POSITIVE_INFINITY, to: Number.POSITIVE_INFINITY };
      const paused = () => {
        const now = performance.now();
        return now >= silence.from && now < silence.to;
      };
      const targets = [newTarget(a.baseUrl), newTarget(b.baseUrl)];
      const result = await runPhase(
        targets,
        async () => {
          // A quarter into the third window: Redis is back well before that window ends.
          const strike = windowEdge(windowIndex(performance.now()) + 2) + W / 4;
          await new Promise((resolve) => setTimeout(resolve, strike - performance.now()));
          downAt = performance.now();
          await redis.kill("SIGKILL");
          await new Promise((resolve) => setTimeout(resolve, REDIS_DOWN_MS));
          await redis.restart();
          restoredAt = performance.now();
          silence.from = windowEdge(windowIndex(restoredAt) + 2);
          silence.to = windowEdge(windowIndex(restoredAt) + 4);
        },
        WINDOWS,
        paused,
      );
      // The window Redis came back in is left out (plus 5 ms for the clock's rounding).
      const from = windowEdge(windowIndex(restoredAt) + 1) + 5;
      const check = checkSlidingGuarantee(result.tally.admitted, LIMIT, W, from);
      const whole = checkSlidingGuarantee(result.tally.admitted, LIMIT, W);
      const checked = result.tally.admitted.filter(({ sentAt }) => sentAt >= from).length;
      // The burst after the silence: admitted in the first second after it.
      const burst = result.tally.admitted.filter(
        ({ sentAt, receivedAt }) => sentAt >= silence.to && receivedAt < silence.to + 1_000,
      ).length;
      summary("Redis restart", result, {
        check,
        includingTheRestartWindow: whole.breach ?? whole.tightest,
        downAtMs: Math.round(downAt - result.started),
        restoredAtMs: Math.round(restoredAt - result.started),
        checkedFromMs: Math.round(from - result.started),
        admittedFromThere: checked,
        silenceMs: [Math.round(silence.from - result.started), Math.round(silence.to - result.started)],
        burstAfterSilence: burst,
      });
      expectBusy(result);
      expect(restoredAt).toBeGreaterThan(downAt);
      expect(restoredAt - result.started).toBeLessThan(6 * W);
      expect(check.breach).toBeUndefined();
      // At least three windows were checked after the restart, under pressure, and the burst after
      // the silence came close to its bound (limit + ceil(limit × t / W) with t a round trip or so)
      // without passing it: two instances counting apart would have admitted 2 × limit there.
      expect(checked).toBeGreaterThan(3 * LIMIT * 0.75);
      expect(burst).toBeGreaterThanOrEqual(LIMIT - 2);
      expect(check.tightest.bound - check.tightest.admitted).toBeLessThanOrEqual(LIMIT / 2);
    });

    it("fails where the guarantee does not hold: two instances counting on their own (no Redis, as in an outage) admit twice the limit at once", async () => {
      const alone = await Promise.all([
        spawnServer({ DATABASE_URL: database.url, REDIS_URL: "" }),
        spawnServer({ DATABASE_URL: database.url, REDIS_URL: "" }),
      ]);
      try {
        const [a, b] = alone;
        if (!a || !b) throw new Error("two instances expected");
        const result = await runPhase([newTarget(a.baseUrl), newTarget(b.baseUrl)], async () => {}, 2);
        const check = checkSlidingGuarantee(result.tally.admitted, LIMIT, W);
        summary("without Redis", result, { check });
        expect(result.tally.counts.other).toBe(0);
        // Each instance admitted its `limit` at the start: 2 × limit within one round trip or so.
        expect(check.breach).toBeDefined();
        expect(check.breach?.admitted).toBeGreaterThan(LIMIT + LIMIT / 2);
      } finally {
        await Promise.all(alone.map((server) => server.stop("SIGTERM")));
      }
    });
  },
);
