import { runScript } from "@keyport/node-edge";
import type { Redis } from "ioredis";
import type { RawQuery } from "../db/raw.js";
import { nextRefill } from "../keys/refill-period.js";
import type { CreditsResult, CreditsStore } from "../verify/credits-store.js";
import { readStoredBalance, stateArgs } from "./cold-load.js";
import { type CreditsLayout, shardOf } from "./layout.js";
import type { LiveCredits } from "./overlay-live.js";
import { createSpendLanes } from "./spend-lanes.js";
import {
  parseSpendReply,
  SPEND_SCRIPT,
  SPEND_STATUS,
  type SpendOperation,
  type SpendReply,
  spendArgs,
} from "./spend-script.js";
import { creditsUnavailable } from "./unavailable.js";

export interface RedisCreditsOptions {
  layout: CreditsLayout;
  /** A loaded balance untouched this long leaves Redis (the next spend loads it again). Default 24 h. */
  idleTtlMs?: number;
  /** How long a spend waits, in total, for a fenced balance (an administrative change) before 503. Default 250. */
  fenceWaitMs?: number;
}

/** The Redis credits: spends and reads, and the live balance the key answers show. */
export interface RedisCreditsStore extends CreditsStore {
  /** Both pools now (a refill due applied to the allowance) and the period it belongs to; null when it does not exist. */
  live: LiveCredits;
}

// A cold load whose PostgreSQL read took longer than this reads again: an administrative change
// fences a balance for 5 s, so a read this fresh cannot be from before a change whose fence expired.
const FRESH_READ_MS = 1_000;
const MAX_STALE_RETRIES = 5;
// Operations of one balance in one script call, at most.
const MAX_BATCH = 256;

/** An operation waiting for its balance's script call; past `deadline` (performance.now()) a fence makes it fail. */
interface Queued extends SpendOperation {
  deadline: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Credits spent in Redis (docs/verifying-keys.md#credits-with-redis): one script checks and spends
 * a balance and journals the spend in its shard's stream, which the drainer (credits/drainer.ts)
 * applies to PostgreSQL. Spends and reads of one balance asked while its script call is in flight
 * wait, and then go together in the next call (spend-lanes.ts), each answered as if alone. A
 * balance not in Redis is loaded from PostgreSQL minus the undrained spends. Any Redis failure, or
 * a balance fenced for longer than `fenceWaitMs`, throws the "unavailable" error (503) to every
 * caller of the batch: a metered key fails closed.
 * @example const credits = createRedisCreditsStore(redis, rawQuery, { layout: createCreditsLayout(prefix) });
 */
export function createRedisCreditsStore(
  redis: Redis,
  query: RawQuery,
  options: RedisCreditsOptions,
): RedisCreditsStore {
  const { layout } = options;
  const idleTtl = String(options.idleTtlMs ?? 86_400_000);
  const fenceWaitMs = options.fenceWaitMs ?? 250;

  async function run(creditsId: string, args: string[], count: number): Promise<number | SpendReply[]> {
    if (redis.status !== "ready") throw creditsUnavailable();
    const shard = shardOf(creditsId);
    const keys = [
      layout.balance(creditsId),
      layout.journal(shard),
      layout.fence(creditsId),
      layout.trimmed(shard),
    ];
    try {
      return parseSpendReply(await runScript(redis, SPEND_SCRIPT, keys, args), count);
    } catch (error) {
      throw creditsUnavailable(error);
    }
  }

  // Each operation's reply, a whole-batch status (busy, or still stale after retries), or null when
  // the balance does not exist.
  async function attempt(creditsId: string, operations: SpendOperation[]) {
    const count = operations.length;
    const reply = await run(creditsId, spendArgs(creditsId, idleTtl, operations), count);
    if (reply !== SPEND_STATUS.cold) return reply;
    for (let tries = 0; ; tries++) {
      const started = performance.now();
      // A database outage here maps to 503 by itself (db/unavailable.ts); any other error stays a 500.
      const stored = await readStoredBalance(query, creditsId);
      if (stored === null) return null;
      if (performance.now() - started > FRESH_READ_MS) {
        if (tries < MAX_STALE_RETRIES) continue;
        throw creditsUnavailable();
      }
      const state = [...stateArgs(stored.state), stored.appliedId];
      const loaded = await run(creditsId, spendArgs(creditsId, idleTtl, operations, state), count);
      if (loaded !== SPEND_STATUS.stale || tries >= MAX_STALE_RETRIES) return loaded;
    }
  }

  // Settles a batch of one balance: each operation gets its reply (null when the balance does not
  // exist). Fenced (or still stale after retries), the batch waits for the change to install; an
  // operation still waiting `fenceWaitMs` after it was asked fails (503), the rest try again.
  const submit = createSpendLanes<Queued, SpendReply | null>(async (creditsId, batch) => {
    let waiting = batch;
    for (let wait = 10; ; wait *= 2) {
      const replies = await attempt(
        creditsId,
        waiting.map((item) => item.op),
      );
      if (replies === null || Array.isArray(replies)) {
        for (const [i, item] of waiting.entries())
          item.resolve(replies === null ? null : (replies[i] ?? null));
        return;
      }
      const now = performance.now();
      for (const item of waiting) if (item.op.deadline <= now) item.reject(creditsUnavailable());
      waiting = waiting.filter((item) => item.op.deadline > now);
      if (waiting.length === 0) return;
      await sleep(Math.min(wait, ...waiting.map((item) => item.op.deadline - now)));
    }
  }, MAX_BATCH);

  // A settled reply (OK or SHORT), null when the balance does not exist.
  function settle(mode: "spend" | "read", creditsId: string, cost: number, atMs: number, keyId = "") {
    return submit(creditsId, { mode, cost, atMs, keyId, deadline: performance.now() + fenceWaitMs });
  }

  async function answer(
    mode: "spend" | "read",
    creditsId: string,
    cost: number,
    atMs: number,
    keyId = "",
  ): Promise<CreditsResult> {
    const reply = await settle(mode, creditsId, cost, atMs, keyId);
    if (reply === null) return { ok: cost === 0, remaining: 0, purchased: 0, refillAt: null };
    const [status, allowance = 0, code, , purchased = 0] = reply;
    const refillAt = code === 1 ? nextRefill("daily", atMs) : code === 2 ? nextRefill("monthly", atMs) : null;
    return { ok: status === SPEND_STATUS.ok, remaining: allowance + purchased, purchased, refillAt };
  }

  return {
    spend: (creditsId, cost, atMs, keyId) =>
      answer(cost === 0 ? "read" : "spend", creditsId, cost, atMs, keyId ?? ""),
    read: (creditsId, cost, atMs) => answer("read", creditsId, cost, atMs),
    async live(creditsId, atMs) {
      const reply = await settle("read", creditsId, 0, atMs);
      if (reply === null) return null;
      const [, remaining = 0, , refilledAt = -1, purchased = 0] = reply;
      return { remaining, purchased, refilledAt: refilledAt < 0 ? null : new Date(refilledAt) };
    },
  };
}
