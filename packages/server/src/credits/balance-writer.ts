import { runScript } from "@keyport/node-edge";
import { eq, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Tx } from "../db/database.js";
import { creditJournalMarks, type KeyCreditsRow, keyCredits } from "../db/schema/index.js";
import { creditsValues, upsertCredits } from "../keys/key-credits.js";
import { refillPeriodStart } from "../keys/refill-period.js";
import type { CreditsInput } from "../schemas/key-policy.js";
import { balanceStateOf } from "./balance-state.js";
import { stateArgs } from "./cold-load.js";
import { type CreditsLayout, shardOf } from "./layout.js";
import { FENCE_SCRIPT, HOLD_FENCE_SCRIPT, INSTALL_SCRIPT, RELEASE_FENCE_SCRIPT } from "./scripts.js";
import { creditsUnavailable } from "./unavailable.js";

/**
 * An administrative change of a balance: set its allowance (a PATCH of credits; the purchased
 * credits stay), or add to its purchased credits (a top-up; the allowance stays).
 */
export type BalanceChange = { kind: "set"; input: CreditsInput } | { kind: "add"; amount: number };

/** A change written inside a transaction, and what it still needs around the commit. */
export interface WrittenBalance {
  /** The row as committed, both pools (undefined: an `add` to a balance that does not exist). */
  row: KeyCreditsRow | undefined;
  /** Runs last inside the transaction: throws (so it rolls back) when the change can no longer be installed safely. */
  beforeCommit(): Promise<void>;
  /** Runs after the transaction ended, committed or not. */
  settle(committed: boolean): Promise<void>;
}

/** The one path every administrative change of a balance takes (docs/decisions.md, Credits in Redis). */
export interface BalanceWriter {
  write(tx: Tx, id: string, change: BalanceChange, now: Date): Promise<WrittenBalance>;
}

const NOTHING_MORE = { beforeCommit: async () => undefined, settle: async () => undefined };

/** Both pools as Redis holds them now (PostgreSQL's minus the undrained spends). */
type LiveBalance = Pick<KeyCreditsRow, "remaining" | "purchased" | "refilledAt">;

/** Sets or adds under the row lock, for a balance nothing else holds. */
async function writeRow(
  tx: Tx,
  id: string,
  change: BalanceChange,
  now: Date,
  live: LiveBalance | null,
): Promise<KeyCreditsRow | undefined> {
  if (change.kind === "set") return upsertCredits(tx, id, change.input, now);
  const [old] = await tx.select().from(keyCredits).where(eq(keyCredits.id, id));
  if (!old) return undefined;
  let remaining = live?.remaining ?? old.remaining;
  let refilledAt = live === null ? old.refilledAt : live.refilledAt;
  const purchased = live?.purchased ?? old.purchased;
  // A refill due now is applied to the allowance, as a spend would: the version bump that follows
  // supersedes the journaled spends, so the row must hold the live allowance too.
  if (old.refillInterval !== null && old.refillAmount !== null && refilledAt !== null) {
    const period = refillPeriodStart(old.refillInterval, now.getTime());
    if (refilledAt < period) {
      remaining = old.refillAmount;
      refilledAt = period;
    }
  }
  const [row] = await tx
    .update(keyCredits)
    .set({
      remaining,
      purchased: purchased + change.amount,
      refilledAt,
      version: sql`${keyCredits.version} + 1`,
      // The credits.low threshold follows the last top-up; the balance rose: a new period of credit
      // events (docs/webhooks.md#credit-events).
      lastTopUp: change.amount,
      exhaustedNotified: false,
    })
    .where(eq(keyCredits.id, id))
    .returning();
  return row;
}

/**
 * Without Redis: the change is the row's statement under its lock (a set bumps the version too, so
 * the same rows work either way).
 * @example const written = await createDatabaseBalanceWriter().write(tx, id, { kind: "add", amount: 100 }, now);
 */
export function createDatabaseBalanceWriter(): BalanceWriter {
  return {
    async write(tx, id, change, now) {
      await tx.select({ id: keyCredits.id }).from(keyCredits).where(eq(keyCredits.id, id)).for("update");
      return { row: await writeRow(tx, id, change, now, null), ...NOTHING_MORE };
    },
  };
}

export interface RedisBalanceWriterOptions {
  layout: CreditsLayout;
  /** How long a fence holds without its change installing (the process died): default 5,000 ms. */
  fenceTtlMs?: number;
  /** Idle TTL of a balance installed in Redis: default 24 h. */
  idleTtlMs?: number;
}

/**
 * With Redis: under the row's lock, fence the balance in Redis (spends answer BUSY and wait), take
 * its live state and drop the hash; write the new row with its version + 1 (spends journaled against
 * the old version are then skipped by the drainer: this change accounted for them); just before
 * the commit, check the fence still holds; after it, install the new state and lift the fence. A
 * process dying in between leaves the fence to expire, and the next spend loads the committed row.
 * @example const written = await writer.write(tx, id, { kind: "set", input }, now); ...; await written.settle(true);
 */
export function createRedisBalanceWriter(redis: Redis, options: RedisBalanceWriterOptions): BalanceWriter {
  const { layout } = options;
  const fenceTtl = String(options.fenceTtlMs ?? 5_000);
  const idleTtl = String(options.idleTtlMs ?? 86_400_000);

  async function script(...args: Parameters<typeof runScript>): Promise<unknown> {
    if (redis.status !== "ready") throw creditsUnavailable();
    try {
      return await runScript(...args);
    } catch (error) {
      throw creditsUnavailable(error);
    }
  }

  return {
    async write(tx, id, change, now) {
      const [old] = await tx.select().from(keyCredits).where(eq(keyCredits.id, id)).for("update");
      // A balance not created yet is in no Redis: its first spend loads it.
      if (!old) return { row: await writeRow(tx, id, change, now, null), ...NOTHING_MORE };
      const shard = shardOf(id);
      const [mark] = await tx
        .select({ appliedId: creditJournalMarks.appliedId })
        .from(creditJournalMarks)
        .where(eq(creditJournalMarks.shard, shard));
      const version = String(old.version + 1);
      const fence = layout.fence(id);
      const stored = balanceStateOf(old);
      const reply = await script(
        redis,
        FENCE_SCRIPT,
        [layout.balance(id), layout.journal(shard), fence],
        [id, version, fenceTtl, ...stateArgs(stored), mark?.appliedId ?? "0-0"],
      );
      const [remaining, refilledAt, purchased] = Array.isArray(reply) ? reply.map(Number) : [];
      if (
        remaining === undefined ||
        refilledAt === undefined ||
        purchased === undefined ||
        Number.isNaN(remaining) ||
        Number.isNaN(purchased)
      ) {
        throw creditsUnavailable(new Error("Unexpected reply from a Redis script"));
      }
      const live = { remaining, purchased, refilledAt: refilledAt < 0 ? null : new Date(refilledAt) };
      let row =
        change.kind === "add"
          ? await writeRow(tx, id, change, now, live)
          : await writeSet(tx, id, change.input, now, { version: old.version + 1, purchased });
      if (row === undefined) row = old;
      const written = row;
      return {
        row: written,
        async beforeCommit() {
          if ((await script(redis, HOLD_FENCE_SCRIPT, [fence], [version, fenceTtl])) !== 1) {
            throw creditsUnavailable(new Error("credits fence expired before commit"));
          }
        },
        async settle(committed) {
          if (!committed) {
            await script(redis, RELEASE_FENCE_SCRIPT, [fence], [version]).catch(() => undefined);
            return;
          }
          const state = balanceStateOf(written);
          const [, , interval = "", amount = "0", at = "-1", purchased = "0", top = "0", x = "0"] =
            stateArgs(state);
          // Best effort: when this fails the fence expires and the next spend loads the committed row.
          await script(
            redis,
            INSTALL_SCRIPT,
            [layout.balance(id), fence],
            [version, String(written.remaining), interval, amount, at, idleTtl, purchased, top, x],
          ).catch(() => undefined);
        },
      };
    },
  };
}

/**
 * A PATCH under Redis: the allowance as given; the purchased credits as they are live (the spends
 * journaled against the old version are superseded, so PostgreSQL's lagging value would undo them).
 */
async function writeSet(
  tx: Tx,
  id: string,
  input: CreditsInput,
  now: Date,
  kept: { version: number; purchased: number },
) {
  const [row] = await tx
    .update(keyCredits)
    .set({ ...creditsValues(input, now), ...kept })
    .where(eq(keyCredits.id, id))
    .returning();
  return row;
}
