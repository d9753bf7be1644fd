import { type RedisServer, startRedisServer } from "@keyport/test-support/redis-server";
import { signIn } from "@keyport/test-support/siwe";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "../support/databases.js";
import { createKeyOver } from "../support/keys.js";
import { type ServerProcess, spawnServer } from "../support/process.js";
import { type Drained, journalLength, remainingInPostgres, waitUntilDrained } from "./credits-drained.js";
import { newSpendTally, newTarget, type SpendTally, spendUntilRefused, unanswered } from "./spend-clients.js";

// Credits exact under faults (docs/verifying-keys.md#credits-with-redis): two server processes on one
// PostgreSQL database and one redis-server of this test's own (AOF, fsync on every write), one key
// with 10,000 credits, 200 keep-alive clients spending cost 1 until refused. Each run has a quiet
// phase first (no fault: PostgreSQL must then show exactly the VALID answers), then one instance is
// killed with SIGKILL (its clients move to the other) and Redis is killed with SIGKILL and started
// again on its port and directory. A request cut by a fault may have spent its credit without its
// answer arriving, so after the survivor drains: VALID <= 10,000, and PostgreSQL's spends lie between
// VALID and VALID plus the unanswered (cut connections, timeouts, 5xx); an exhausted balance reads 0.
// (It fails with a drainer that skips its mark or applies an entry twice, a spend that does not
// journal, or a Redis without its append-only file.)

const CREDITS = 10_000;
const CLIENTS = 200;
/** Answers in each run's quiet phase, before any fault. */
const QUIET_ANSWERS = 1_000;
/** How long Redis stays down between its kill and its restart. */
const REDIS_DOWN_MS = 300;

interface FaultPlan {
  /** SIGKILL the second instance once this many answers have been counted. */
  killInstanceAt: number;
  /** Kill and restart Redis once this many answers have been counted. */
  restartRedisAt: number;
  /** Stop sending once this many answers have been counted (undefined: until every client is refused). */
  stopAt?: number;
}

interface RunResult {
  /** The phase before the faults: its answers, and what PostgreSQL spent in it. */
  quiet: { tally: SpendTally; spent: number };
  /** The phase with the faults. */
  tally: SpendTally;
  drained: Drained;
  /** What PostgreSQL spent in the phase with the faults (its balance after the quiet phase minus after draining). */
  spent: number;
  /** Answers counted when each fault struck (undefined: the run ended before it). */
  struck: { instance?: number; redis?: number };
  ms: number;
}

describe.runIf(TEST_DATABASE_URL)(
  "credits under a SIGKILL and a Redis restart [postgres + redis-server]",
  () => {
    let database: { url: string; drop(): Promise<void> };
    let redis: RedisServer;
    let sql: postgres.Sql;
    let token: string;
    const servers: ServerProcess[] = [];

    // Drainers every 5 ms (default 200): the two instances' drainers race on the same batches
    // throughout, which the quiet phase's exact count then checks.
    const startInstance = () =>
      spawnServer({ DATABASE_URL: database.url, REDIS_URL: redis.url, CREDITS_DRAIN_INTERVAL_MS: "5" });
    const living = () =>
      servers.filter((server) => server.child.exitCode === null && server.child.signalCode === null);

    beforeAll(async () => {
      if (!TEST_DATABASE_URL) return;
      database = await createPostgresTestDatabase(TEST_DATABASE_URL);
      redis = await startRedisServer();
      sql = postgres(database.url, { max: 2, onnotice: () => {} });
      servers.push(...(await Promise.all([startInstance(), startInstance()])));
      const first = servers[0];
      if (!first) throw new Error("no server");
      token = (await signIn(first.baseUrl)).token;
    }, 120_000);

    afterAll(async () => {
      if (!TEST_DATABASE_URL) return;
      await Promise.all(living().map((server) => server.stop("SIGTERM")));
      await sql?.end();
      await redis?.close();
      await database?.drop();
    }, 60_000);

    const drain = (keyId: string) =>
      waitUntilDrained(async () => ({
        remaining: await remainingInPostgres(sql, keyId),
        undrained: await journalLength(redis.url),
      }));

    /**
     * One run: a fresh key and two instances; first a quiet phase (no fault, so PostgreSQL must show
     * exactly the VALID answers once drained), then the phase with the faults of `plan`, then the
     * survivor's drain.
     */
    const runWithFaults = async (plan: FaultPlan): Promise<RunResult> => {
      while (living().length < 2) servers.push(await startInstance());
      const [a, b] = living();
      if (!a || !b) throw new Error("two instances expected");
      const created = await createKeyOver(a.baseUrl, token, {
        name: "chaos",
        credits: { remaining: CREDITS },
      });
      const targets = [newTarget(a.baseUrl), newTarget(b.baseUrl)];
      const quietTally = newSpendTally();
      await spendUntilRefused({
        targets,
        key: created.key,
        clients: CLIENTS,
        tally: quietTally,
        stop: () => quietTally.answered >= QUIET_ANSWERS,
      });
      const quietDrained = await drain(created.apiKey.id);
      const quiet = { tally: quietTally, spent: CREDITS - quietDrained.remaining };

      const tally = newSpendTally();
      const struck: RunResult["struck"] = {};
      const started = Date.now();
      let done = false;
      const traffic = spendUntilRefused({
        targets,
        key: created.key,
        clients: CLIENTS,
        tally,
        stop: () => plan.stopAt !== undefined && tally.answered >= plan.stopAt,
      }).finally(() => {
        done = true;
      });
      const reached = async (answers: number) => {
        while (!done && tally.answered < answers) await new Promise((resolve) => setTimeout(resolve, 5));
        return !done;
      };
      if (await reached(plan.killInstanceAt)) {
        struck.instance = tally.answered;
        const victim = targets[1];
        if (victim) victim.up = false;
        await b.stop("SIGKILL");
      }
      if (await reached(plan.restartRedisAt)) {
        struck.redis = tally.answered;
        await redis.kill("SIGKILL");
        await new Promise((resolve) => setTimeout(resolve, REDIS_DOWN_MS));
        await redis.restart();
      }
      await traffic;
      const ms = Date.now() - started;
      for (const target of targets) target.agent.destroy();
      const drained = await drain(created.apiKey.id);
      const result = { quiet, tally, drained, spent: quietDrained.remaining - drained.remaining, struck, ms };
      console.info(
        `credits chaos ${JSON.stringify({ plan, ...result, quiet: { ...quiet, tally: quietTally.counts }, tally: tally.counts })}`,
      );
      return result;
    };

    /** What every run must show, exhausted or not. */
    const expectExactUnderFaults = (result: RunResult) => {
      // Without faults, exact: every answer VALID, and PostgreSQL spent exactly that many.
      const { quiet } = result;
      expect(quiet.tally.counts).toEqual({ ...newSpendTally().counts, VALID: quiet.tally.counts.VALID });
      expect(quiet.spent).toBe(quiet.tally.counts.VALID);
      const { tally, spent } = result;
      const valid = tally.counts.VALID;
      expect(tally.unexpected, "answers other than VALID, USAGE_EXCEEDED or 5xx").toEqual([]);
      expect(tally.counts.other).toBe(0);
      // Both faults struck mid-run, and answers went on after them (whether a fault cut requests in
      // flight depends on its instant: the log line shows it).
      expect(result.struck.instance).toBeDefined();
      expect(result.struck.redis).toBeDefined();
      expect(tally.answered).toBeGreaterThan((result.struck.redis ?? Number.POSITIVE_INFINITY) + CLIENTS);
      expect(result.drained.undrained).toBe(0);
      // Never more admitted than the balance; every admitted spend reached PostgreSQL; PostgreSQL
      // spent nothing beyond what the clients were told or could not hear.
      expect(quiet.tally.counts.VALID + valid).toBeLessThanOrEqual(CREDITS);
      expect(spent).toBeGreaterThanOrEqual(valid);
      expect(spent).toBeLessThanOrEqual(valid + unanswered(tally));
    };

    it("spends to exhaustion across the faults: VALID <= 10,000 <= VALID + unanswered, and PostgreSQL reads 0 after draining", async () => {
      const result = await runWithFaults({ killInstanceAt: 2_000, restartRedisAt: 5_000 });
      expectExactUnderFaults(result);
      // Every client was refused in the end, and the balance is gone on both sides.
      expect(result.tally.counts.USAGE_EXCEEDED).toBe(CLIENTS);
      expect(result.drained.remaining).toBe(0);
      const valid = result.quiet.tally.counts.VALID + result.tally.counts.VALID;
      expect(valid + unanswered(result.tally)).toBeGreaterThanOrEqual(CREDITS);
    });

    it("stops early across the same faults: the spends PostgreSQL shows lie between VALID and VALID + unanswered", async () => {
      const result = await runWithFaults({ killInstanceAt: 500, restartRedisAt: 1_500, stopAt: 3_000 });
      expectExactUnderFaults(result);
      expect(result.tally.counts.USAGE_EXCEEDED).toBe(0);
      expect(result.drained.remaining).toBeGreaterThan(0);
    });
  },
);
