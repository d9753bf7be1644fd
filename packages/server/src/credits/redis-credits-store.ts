import { integerReply, runScript } from "@keyport/node-edge";
import type { Redis } from "ioredis";
import type { RawQuery } from "../db/raw.js";
import { nextRefill, utcDayStart, utcMonthStart } from "../keys/refill-period.js";
import type { CreditsResult, CreditsStore } from "../verify/credits-store.js";
import { readStoredBalance, stateArgs } from "./cold-load.js";
import { type CreditsLayout, shardOf } from "./layout.js";
import type { LiveCredits } from "./overlay-live.js";
import { SPEND_SCRIPT, SPEND_STATUS } from "./scripts.js";
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Credits spent in Redis (docs/verifying-keys.md#credits-with-redis): one script checks and spends
 * a balance and journals the spend in its shard's stream, which the drainer (credits/drainer.ts)
 * applies to PostgreSQL. A balance not in Redis is loaded from PostgreSQL minus the undrained
 * spends. Any Redis failure, or a balance fenced for longer than `fenceWaitMs`, throws the
 * "unavailable" error (503): a metered key fails closed.
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

  async function run(creditsId: string, args: string[]): Promise<number[]> {
    if (redis.status !== "ready") throw creditsUnavailable();
    const shard = shardOf(creditsId);
    const keys = [
      layout.balance(creditsId),
      layout.journal(shard),
      layout.fence(creditsId),
      layout.trimmed(shard),
    ];
    try {
      return integerReply(await runScript(redis, SPEND_SCRIPT, keys, args), 5);
    } catch (error) {
      throw creditsUnavailable(error);
    }
  }

  async function attempt(
    mode: "spend" | "read",
    creditsId: string,
    cost: number,
    atMs: number,
    keyId: string,
  ) {
    const base = [
      creditsId,
      String(cost),
      String(utcDayStart(atMs).getTime()),
      String(utcMonthStart(atMs).getTime()),
      mode,
      idleTtl,
      keyId,
    ];
    const reply = await run(creditsId, base);
    if (reply[0] !== SPEND_STATUS.cold) return reply;
    for (let tries = 0; ; tries++) {
      const started = performance.now();
      // A database outage here maps to 503 by itself (db/unavailable.ts); any other error stays a 500.
      const stored = await readStoredBalance(query, creditsId);
      if (stored === null) return null;
      if (performance.now() - started > FRESH_READ_MS) {
        if (tries < MAX_STALE_RETRIES) continue;
        throw creditsUnavailable();
      }
      const loaded = await run(creditsId, [...base, ...stateArgs(stored.state), stored.appliedId]);
      if (loaded[0] !== SPEND_STATUS.stale || tries >= MAX_STALE_RETRIES) return loaded;
    }
  }

  // A settled reply (OK or SHORT), null when the balance does not exist.
  async function settle(mode: "spend" | "read", creditsId: string, cost: number, atMs: number, keyId = "") {
    const deadline = performance.now() + fenceWaitMs;
    for (let wait = 10; ; wait *= 2) {
      const reply = await attempt(mode, creditsId, cost, atMs, keyId);
      if (reply === null) return null;
      if (reply[0] === SPEND_STATUS.ok || reply[0] === SPEND_STATUS.short) return reply;
      // Fenced (or still stale after retries): wait for the change to install, within the bound.
      const left = deadline - performance.now();
      if (left <= 0) throw creditsUnavailable();
      await sleep(Math.min(wait, left));
    }
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
