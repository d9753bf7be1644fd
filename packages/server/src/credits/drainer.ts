import { runScript } from "@keyport/node-edge";
import type { Redis } from "ioredis";
import type { RawQuery } from "../db/raw.js";
import type { RawTransaction } from "../db/raw-transaction.js";
import { BALANCE_COLUMNS_SQL, balanceColumnsOf, balanceStateOf } from "./balance-state.js";
import { enqueueCreditEvent } from "./enqueue-credit-event.js";
import { type CreditsLayout, JOURNAL_SHARDS, streamIdBefore } from "./layout.js";
import { TRIM_SCRIPT } from "./scripts.js";
import { type BalanceState, type JournalEntry, parseEntry, replayEntry } from "./state.js";

export interface CreditsDrainerOptions {
  redis: Redis;
  transaction: RawTransaction;
  layout: CreditsLayout;
  /** Entries per shard per transaction. Default 1,000. */
  batchSize?: number;
  /** Told once when a replay would take a balance below 0 (it is clamped at 0 instead). */
  onOverdraw?: (creditsId: string) => void;
}

/** What one pass over a shard did. */
export interface DrainResult {
  /** Entries applied to PostgreSQL by this pass (0 when another drainer had applied them). */
  applied: number;
  /** The last id of the batch read (then trimmed), or null when the shard's journal was empty. */
  lastId: string | null;
  /** Whether the batch was full: more entries may be waiting. */
  full: boolean;
}

export interface CreditsDrainer {
  /** Applies one batch of shard `shard` to PostgreSQL, then trims it. `trim: false` stops before the trim (a crash there, in tests). */
  drainShard(shard: number, options?: { trim?: boolean }): Promise<DrainResult>;
  /** Drains every shard until each journal is empty; answers the entries applied. */
  drainAll(): Promise<number>;
  /** Entries still in the journals (drained or not, until trimmed). */
  pending(): Promise<number>;
}

const LOCK_MARK = `insert into credit_journal_marks (shard, applied_id) values ($1::smallint, '0-0') on conflict do nothing`;
const READ_MARK = `select applied_id from credit_journal_marks where shard = $1::smallint for update`;
const LOCK_ROWS = `select id, ${BALANCE_COLUMNS_SQL} from key_credits
where id = any($1::text[]) order by id for update`;
// The flags travel as text: postgres.js serialises a boolean[] parameter from JS booleans only.
const WRITE_ROWS = `update key_credits c set remaining = v.remaining, purchased = v.purchased, refilled_at = v.refilled_at,
exhausted_notified = v.exhausted
from (select unnest($1::text[]) as id, unnest($2::bigint[]) as remaining, unnest($4::bigint[]) as purchased,
nullif(unnest($3::text[]), '')::timestamptz as refilled_at, unnest($5::text[])::boolean as exhausted) v
where c.id = v.id`;
const WRITE_MARK = `update credit_journal_marks set applied_id = $2 where shard = $1::smallint`;

function rowState(row: unknown): { id: string; state: BalanceState } | null {
  if (typeof row !== "object" || row === null) return null;
  const id: unknown = Reflect.get(row, "id");
  if (typeof id !== "string") return null;
  return { id, state: balanceStateOf(balanceColumnsOf(row)) };
}

/**
 * Applies `entries` (all after the shard's mark) to their balances under the rows' locks, and writes
 * the credit events they carry to the webhook outbox: every one, even of a spend an administrative
 * change superseded (the spend happened; the change accounted for its credits, not its event).
 */
async function applyEntries(
  query: RawQuery,
  entries: JournalEntry[],
  onOverdraw: (creditsId: string) => void,
): Promise<void> {
  const ids = [...new Set(entries.map((entry) => entry.creditsId))];
  const rows = new Map<string, BalanceState>();
  for (const row of await query(LOCK_ROWS, [ids])) {
    const parsed = rowState(row);
    if (parsed !== null) rows.set(parsed.id, parsed.state);
  }
  const changed = new Set<string>();
  for (const entry of entries) {
    if (entry.event !== null && rows.has(entry.creditsId))
      await enqueueCreditEvent(query, entry, entry.event);
    const state = rows.get(entry.creditsId);
    // A balance deleted, or a spend superseded by an administrative change (which accounted for it).
    if (state === undefined || state.version !== entry.version) continue;
    if (!replayEntry(state, entry)) onOverdraw(entry.creditsId);
    changed.add(entry.creditsId);
  }
  if (changed.size === 0) return;
  const list = [...changed];
  const states = list.map((id) => rows.get(id));
  await query(WRITE_ROWS, [
    list,
    states.map((state) => String(state?.remaining ?? 0)),
    states.map((state) => (state?.refilledAt == null ? "" : new Date(state.refilledAt).toISOString())),
    states.map((state) => String(state?.purchased ?? 0)),
    states.map((state) => String(state?.exhausted ?? false)),
  ]);
}

/**
 * The journal drainer (docs/decisions.md, Credits in Redis): reads a batch of a shard's stream,
 * applies the entries after the shard's mark in one PostgreSQL transaction that also moves the
 * mark (so nothing is applied twice, whatever crashes), then trims the stream up to the batch.
 * Every instance runs one; two on one shard serialise on the mark's row lock.
 * @example const drainer = createCreditsDrainer({ redis, transaction, layout }); await drainer.drainAll();
 */
export function createCreditsDrainer(options: CreditsDrainerOptions): CreditsDrainer {
  const { redis, transaction, layout } = options;
  const batchSize = options.batchSize ?? 1_000;
  const onOverdraw = options.onOverdraw ?? (() => undefined);

  const drainer: CreditsDrainer = {
    async drainShard(shard, { trim = true } = {}) {
      const raw = await redis.xrange(layout.journal(shard), "-", "+", "COUNT", batchSize);
      const entries = raw.flatMap((item) => {
        const entry = parseEntry(item);
        return entry === null ? [] : [entry];
      });
      const lastId = raw.at(-1)?.[0];
      if (lastId === undefined) return { applied: 0, lastId: null, full: false };
      const applied = await transaction(async (query) => {
        await query(LOCK_MARK, [String(shard)]);
        const [mark] = await query(READ_MARK, [String(shard)]);
        const appliedId = String((mark as { applied_id?: unknown } | undefined)?.applied_id ?? "0-0");
        // Entries up to the mark were applied by an earlier pass that crashed or lost a race before its trim.
        if (!streamIdBefore(appliedId, lastId)) return 0;
        const fresh = entries.filter((entry) => streamIdBefore(appliedId, entry.id));
        if (fresh.length > 0) await applyEntries(query, fresh, onOverdraw);
        await query(WRITE_MARK, [String(shard), lastId]);
        return fresh.length;
      });
      if (trim) await runScript(redis, TRIM_SCRIPT, [layout.journal(shard), layout.trimmed(shard)], [lastId]);
      return { applied, lastId, full: raw.length >= batchSize };
    },
    async drainAll() {
      let total = 0;
      for (let shard = 0; shard < JOURNAL_SHARDS; shard++) {
        for (;;) {
          const { applied, lastId } = await drainer.drainShard(shard);
          total += applied;
          if (lastId === null) break;
        }
      }
      return total;
    },
    async pending() {
      const lengths = await Promise.all(
        Array.from({ length: JOURNAL_SHARDS }, (_, shard) => redis.xlen(layout.journal(shard))),
      );
      return lengths.reduce((sum, n) => sum + n, 0);
    },
  };
  return drainer;
}
